/*
 * The exec shim's check of the sandbox's binds, before the program starts
 * (src/bwrap/bind-identities.ts writes the list): bwrap follows links again in every bind's
 * source and destination, after the host judged each path by its real path, so a path
 * another process swapped for a link in between is bound elsewhere, or something else is
 * bound in its place. PAPERCLIP_SANDBOX_BINDS holds, per bind still in sight, what the host
 * opened at the checked source: `major:minor:inode:destination`, hex, comma-separated.
 * Each destination, followed as bwrap followed it when it mounted (the workspace scope binds
 * at the caller's spelling, which may be a link inside another bind), must be that same file
 * and the root of a mount (a bind shows its source's device and inode): a source swapped
 * for a link was bound from elsewhere, a mount of another file; a destination swapped for
 * a link sent the mount elsewhere, and what is found there now is another file or, swapped
 * back since, no mount's root. Where statx is refused (a container runtime's seccomp
 * profile older than statx: EPERM or ENOSYS), fstatat judges the identity alone. Part of
 * exec-shim.c (freestanding: raw-syscall.h).
 */
#ifndef PAPERCLIP_EXEC_SHIM_BIND_CHECK_H
#define PAPERCLIP_EXEC_SHIM_BIND_CHECK_H

#include <asm/stat.h>
#include <linux/errno.h>
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

/* Statx's answer a seccomp profile gives when it predates statx: then fstatat is asked. */
static bool bind_statx_refused(long error) { return error == -EPERM || error == -ENOSYS; }

/* What sits at `path` (links followed), as the host wrote it; false when nothing can be said. */
struct bind_seen {
    unsigned long long major, minor, inode;
    bool mount_root_known, mount_root;
};

static bool bind_look(const char *path, struct bind_seen *seen) {
    struct statx found;
    long error = raw_syscall(__NR_statx, AT_FDCWD, (long)path, 0, STATX_INO, (long)&found);
    if (error == 0) {
        *seen = (struct bind_seen){found.stx_dev_major, found.stx_dev_minor, found.stx_ino,
                                   (found.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) != 0,
                                   (found.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0};
        return true;
    }
    if (!bind_statx_refused(error)) return false;
    struct stat old;
    if (raw_syscall(__NR_newfstatat, AT_FDCWD, (long)path, (long)&old, 0, 0)) return false;
    /* glibc's major() and minor() of the kernel's encoding (what the host's libuv decodes too). */
    unsigned long long dev = old.st_dev;
    *seen = (struct bind_seen){((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffULL),
                               (dev & 0xff) | ((dev >> 12) & ~0xffULL), old.st_ino, false, false};
    return true;
}

/*
 * NULL when every listed bind shows what the host checked (or there is no list); else the
 * destination that does not (in `path`), or "" for a malformed list. Where it cannot be
 * said whether a path is a mount's root (before Linux 5.8, or fstatat), the identity alone judges.
 */
static const char *bind_mismatch(const char *list, char *path) {
    if (!list) return 0;
    for (const char *at = list; *at;) {
        unsigned long long major, minor, inode;
        if (!bind_number(&at, &major) || !bind_number(&at, &minor) || !bind_number(&at, &inode) ||
            !bind_destination(&at, path))
            return "";
        struct bind_seen seen;
        if (!bind_look(path, &seen) || seen.major != major || seen.minor != minor || seen.inode != inode ||
            (seen.mount_root_known && !seen.mount_root))
            return path;
    }
    return 0;
}

#endif
