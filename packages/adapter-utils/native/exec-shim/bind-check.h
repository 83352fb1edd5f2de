/*
 * The exec shim's check of the sandbox's binds, before the program starts
 * (src/bwrap/bind-identities.ts writes the list): bwrap follows links again in every bind's
 * source and destination, after the host judged each path by its real path, so a path
 * another process swapped for a link in between is bound elsewhere, or something else is
 * bound in its place. PAPERCLIP_SANDBOX_BINDS holds, per bind still in sight, what the host
 * opened at the checked source: `major:minor:inode:destination`, hex, comma-separated.
 * Each destination, not followed if it is a link, must be that same file and the root of a
 * mount (a bind shows its source's device and inode): a destination that was a link when
 * bwrap bound it is still a link or, swapped back since, no mount's root. Part of
 * exec-shim.c (freestanding: raw-syscall.h).
 */
#ifndef PAPERCLIP_EXEC_SHIM_BIND_CHECK_H
#define PAPERCLIP_EXEC_SHIM_BIND_CHECK_H

#include <linux/fcntl.h>
#include <linux/stat.h>
#include <stdbool.h>

#include "raw-syscall.h"

#define BINDS_ENV "PAPERCLIP_SANDBOX_BINDS"
#define BIND_PATH_LIMIT 4096
#ifndef STATX_ATTR_MOUNT_ROOT
#define STATX_ATTR_MOUNT_ROOT 0x00002000 /* Linux 5.8 */
#endif

static int bind_hex_digit(char digit) {
    if (digit >= '0' && digit <= '9') return digit - '0';
    if (digit >= 'a' && digit <= 'f') return digit - 'a' + 10;
    return -1;
}

/* A hex number up to `:`; false when there is none or it does not end there. */
static bool bind_number(const char **at, unsigned long long *value) {
    const char *c = *at;
    *value = 0;
    for (; bind_hex_digit(*c) >= 0 && c - *at < 16; c++) *value = *value * 16 + (unsigned)bind_hex_digit(*c);
    if (c == *at || *c != ':') return false;
    *at = c + 1;
    return true;
}

/* The hex-encoded destination up to `,` or the end, into `path`; false when malformed. */
static bool bind_destination(const char **at, char *path) {
    const char *c = *at;
    size_t length = 0;
    for (; *c && *c != ','; c += 2) {
        int high = bind_hex_digit(c[0]), low = high < 0 ? -1 : bind_hex_digit(c[1]);
        if (low < 0 || length + 1 >= BIND_PATH_LIMIT) return false;
        path[length++] = (char)(high * 16 + low);
    }
    if (length == 0) return false;
    path[length] = '\0';
    *at = *c ? c + 1 : c;
    return true;
}

/*
 * NULL when every listed bind shows what the host checked (or there is no list); else the
 * destination that does not (in `path`), or "" for a malformed list. Statx that cannot say
 * whether a path is a mount's root (before Linux 5.8) leaves the identity alone to judge.
 */
static const char *bind_mismatch(const char *list, char *path) {
    if (!list) return 0;
    for (const char *at = list; *at;) {
        unsigned long long major, minor, inode;
        if (!bind_number(&at, &major) || !bind_number(&at, &minor) || !bind_number(&at, &inode) ||
            !bind_destination(&at, path))
            return "";
        struct statx seen;
        if (raw_syscall(__NR_statx, AT_FDCWD, (long)path, AT_SYMLINK_NOFOLLOW, STATX_INO, (long)&seen)) return path;
        bool mount_root_known = (seen.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) != 0;
        if (seen.stx_dev_major != major || seen.stx_dev_minor != minor || seen.stx_ino != inode ||
            (mount_root_known && !(seen.stx_attributes & STATX_ATTR_MOUNT_ROOT)))
            return path;
    }
    return 0;
}

#endif
