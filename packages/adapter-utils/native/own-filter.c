/*
 * The seccomp filter for callers that spawn the argv themselves (upstream's API): the
 * spawn helper hands bwrap the filter on a descriptor (`--seccomp`), but a caller of
 * buildLocalProcessSandboxSpawnTarget spawns bwrap without one. So the argv also carries
 * the filter, hex-encoded, in PAPERCLIP_SANDBOX_SECCOMP (bwrap's --setenv); the bridge
 * removes it from the environment and loads it just before the program starts, also over a
 * filter that already holds the process: a caller's own (a container runtime's profile) is
 * inherited through bwrap, and the spawn helper, whose bwrap --seccomp loads the same
 * filter, leaves the variable out (src/spawn/plan-spawn.ts). The exec shim of the scopes
 * without a bridge does the same in its own code (exec-shim/exec-shim.c, no libc).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "bridge.h"

#define MAX_FILTER_INSTRUCTIONS 4096

static int hex_value(char digit) {
    if (digit >= '0' && digit <= '9') return digit - '0';
    if (digit >= 'a' && digit <= 'f') return digit - 'a' + 10;
    return -1;
}

static unsigned char *filter_bytes;
static size_t filter_length;

bool take_own_filter(void) {
    const char *hex = getenv(SECCOMP_ENV);
    if (!hex) return true;
    size_t digits = strlen(hex);
    bool valid = digits > 0 && digits % 16 == 0 && digits / 16 <= MAX_FILTER_INSTRUCTIONS;
    if (valid) filter_bytes = malloc(digits / 2);
    for (size_t i = 0; valid && filter_bytes && i < digits; i += 2) {
        int high = hex_value(hex[i]);
        int low = hex_value(hex[i + 1]);
        if (high < 0 || low < 0) valid = false;
        else filter_bytes[i / 2] = (unsigned char)(high * 16 + low);
    }
    filter_length = valid && filter_bytes ? digits / 2 : 0;
    unsetenv(SECCOMP_ENV);
    return filter_length > 0;
}

bool apply_own_filter(void) {
    if (filter_length == 0) return true;
    struct sock_fprog program = {
        .len = (unsigned short)(filter_length / sizeof(struct sock_filter)),
        .filter = (struct sock_filter *)filter_bytes,
    };
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}
