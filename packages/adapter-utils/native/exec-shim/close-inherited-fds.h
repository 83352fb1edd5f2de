/*
 * Step 3 of the exec shim: every descriptor above stdio is closed before the program
 * starts. libuv keeps a host's inherited descriptors (no close-on-exec), bwrap passes them
 * on, and a connected host socket reached that way could be re-connected anywhere the host
 * can go. close_range where the kernel has it (5.9+), else what /proc/self/fd lists, else
 * every number up to the hard limit. Part of exec-shim.c (freestanding: raw-syscall.h).
 */
#ifndef PAPERCLIP_EXEC_SHIM_CLOSE_INHERITED_FDS_H
#define PAPERCLIP_EXEC_SHIM_CLOSE_INHERITED_FDS_H

#include <linux/fcntl.h>
#include <linux/resource.h>

#include "raw-syscall.h"

#ifndef __NR_close_range
#define __NR_close_range 436 /* the same number on both architectures */
#endif

/* The last fallback closes descriptors up to the hard limit, never past this many. */
#define CLOSE_CEILING (1L << 20)

/* A directory entry as getdents64 returns it (struct linux_dirent64 is not in the uapi headers). */
struct directory_entry {
    unsigned long long inode; // cppcheck-suppress unusedStructMember ; the kernel's layout
    long long offset;         // cppcheck-suppress unusedStructMember
    unsigned short record_length;
    unsigned char type; // cppcheck-suppress unusedStructMember
    char name[];
};

/* The descriptor a /proc/self/fd name stands for, or -1 for "." and "..". */
static long fd_named(const char *name) {
    long fd = 0;
    size_t at = 0;
    for (; name[at] >= '0' && name[at] <= '9' && at < 10; at++) fd = fd * 10 + (name[at] - '0');
    return at > 0 && name[at] == '\0' ? fd : -1;
}

/* Every descriptor above stdio: close_range (Linux 5.9+), else what /proc lists, else every number. */
static void close_inherited_fds(void) {
    if (raw_syscall(__NR_close_range, 3, ~0U, 0, 0, 0) == 0) return;
    long listing = raw_syscall(__NR_openat, AT_FDCWD, (long)"/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, 0);
    if (listing < 0) {
        struct rlimit64 limit;
        long highest = raw_syscall(__NR_prlimit64, 0, RLIMIT_NOFILE, 0, (long)&limit, 0) == 0 &&
                               limit.rlim_max < (unsigned long long)CLOSE_CEILING
                           ? (long)limit.rlim_max
                           : CLOSE_CEILING;
        for (long fd = 3; fd < highest; fd++) raw_syscall(__NR_close, fd, 0, 0, 0, 0);
        return;
    }
    char buffer[4096] __attribute__((aligned(8)));
    for (long got; (got = raw_syscall(__NR_getdents64, listing, (long)buffer, sizeof buffer, 0, 0)) > 0;) {
        for (long at = 0; at < got;) {
            const struct directory_entry *entry = (const struct directory_entry *)(buffer + at);
            long fd = fd_named(entry->name);
            if (fd >= 3 && fd != listing) raw_syscall(__NR_close, fd, 0, 0, 0, 0);
            at += entry->record_length;
        }
    }
    raw_syscall(__NR_close, listing, 0, 0, 0, 0);
}

#endif
