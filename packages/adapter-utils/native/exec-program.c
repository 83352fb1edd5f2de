/*
 * What the program inherits, and where the sandbox starts, both decided here.
 *
 *   close_inherited_fds()   every descriptor above stdio is closed before the program runs:
 *                           libuv keeps a host's inherited descriptors (fd 17 and up have no
 *                           close-on-exec), bwrap passes them on, and a connected host socket
 *                           reached that way could be re-connected anywhere the host can go.
 *   --exec PROGRAM [ARGS]   the exec-only mode, for the scopes without a bridge: closes them,
 *                           then becomes the program (no process stays behind).
 *   --cgroup PROCS -- CMD   host side: joins the run's cgroup (its cgroup.procs file) and then
 *                           becomes CMD (bwrap), so every process of the sandbox is born inside
 *                           it: the run's pids limit holds, and the host can kill it whole.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bridge.h"

#ifndef __NR_close_range
#define __NR_close_range 436
#endif

void close_inherited_fds(void) {
    if (syscall(__NR_close_range, 3U, ~0U, 0U) == 0) return;
    /* Kernels before 5.9: close what /proc lists, then whatever the listing itself used. */
    DIR *listing = opendir("/proc/self/fd");
    if (!listing) {
        /* No /proc either: every number a descriptor can have (the hard limit bounds them). */
        struct rlimit limit;
        int highest = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_max < (1U << 20) ? (int)limit.rlim_max : 1 << 20;
        for (int fd = 3; fd < highest; fd++) close(fd);
        return;
    }
    int own = dirfd(listing);
    for (struct dirent *entry; (entry = readdir(listing));) {
        int fd = atoi(entry->d_name);
        if (fd > 2 && fd != own) close(fd);
    }
    closedir(listing);
}

int exec_only_main(char **argv) {
    if (!argv[0]) {
        dprintf(STDERR_FILENO, "usage: paperclip-sandbox-bridge --exec <program> [args...]\n");
        return 125;
    }
    if (!take_own_filter() || !apply_own_filter()) {
        dprintf(STDERR_FILENO, "paperclip-sandbox: cannot load the seccomp filter: %s\n", strerror(errno));
        return 125;
    }
    close_inherited_fds();
    execvp(argv[0], argv);
    int saved = errno;
    dprintf(STDERR_FILENO, "paperclip-sandbox: cannot start %s: %s\n", argv[0], strerror(saved));
    return saved == ENOENT ? 127 : 126;
}

int cgroup_launch_main(int argc, char **argv) {
    /* argv: --cgroup <cgroup.procs> -- <command> [args...] */
    if (argc < 5 || strcmp(argv[3], "--") != 0) {
        dprintf(STDERR_FILENO, "usage: paperclip-sandbox-bridge --cgroup <cgroup.procs> -- <command> [args...]\n");
        return 125;
    }
    int procs = open(argv[2], O_WRONLY | O_CLOEXEC);
    char pid[24];
    int length = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    if (procs < 0 || write(procs, pid, (size_t)length) != length) {
        dprintf(STDERR_FILENO, "paperclip-sandbox: cannot join the run's cgroup %s: %s\n", argv[2], strerror(errno));
        return 125;
    }
    close(procs);
    execvp(argv[4], argv + 4);
    int saved = errno;
    dprintf(STDERR_FILENO, "paperclip-sandbox: cannot start %s: %s\n", argv[4], strerror(saved));
    return saved == ENOENT ? 127 : 126;
}
