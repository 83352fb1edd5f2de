/*
 * What the program inherits, and where the sandbox starts, both decided here.
 *
 *   close_inherited_fds()   every descriptor above stdio is closed before the program runs:
 *                           libuv keeps a host's inherited descriptors (fd 17 and up have no
 *                           close-on-exec), bwrap passes them on, and a connected host socket
 *                           reached that way could be re-connected anywhere the host can go.
 *   --cgroup PROCS -- CMD   host side: joins the run's cgroup (its cgroup.procs file) and then
 *                           becomes CMD (bwrap), so every process of the sandbox is born inside
 *                           it: the run's pids limit holds, and the host can kill it whole.
 *   --cgroup-spare PROCS    host side, started ahead of need: joins the next run's cgroup at
 *                           once (a cgroup v1 move waits for an RCU grace period, milliseconds
 *                           that must not fall on a sandbox start), then waits on fd 5 for the
 *                           run it becomes (cgroup_spare_main).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bridge.h"

#ifndef __NR_close_range
#define __NR_close_range 436
#endif

/* Closes every descriptor from `first` up (`first` > 2). */
static void close_fds_from(unsigned first) {
    if (syscall(__NR_close_range, first, ~0U, 0U) == 0) return;
    /* Kernels before 5.9: close what /proc lists, then whatever the listing itself used. */
    DIR *listing = opendir("/proc/self/fd");
    if (!listing) {
        /* No /proc either: every number a descriptor can have (the hard limit bounds them). */
        struct rlimit limit;
        int highest = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_max < (1U << 20) ? (int)limit.rlim_max : 1 << 20;
        for (int fd = (int)first; fd < highest; fd++) close(fd);
        return;
    }
    int own = dirfd(listing);
    for (struct dirent *entry; (entry = readdir(listing));) {
        int fd = atoi(entry->d_name);
        if (fd >= (int)first && fd != own) close(fd);
    }
    closedir(listing);
}

void close_inherited_fds(void) {
    close_fds_from(3U);
}

/* Moves this process into the cgroup whose cgroup.procs file is `procs_file`; false when it cannot. */
static bool move_to_cgroup(const char *procs_file) {
    int procs = open(procs_file, O_WRONLY | O_CLOEXEC);
    char pid[24];
    int length = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    bool moved = procs >= 0 && write(procs, pid, (size_t)length) == length;
    int saved = errno;
    if (procs >= 0) close(procs);
    errno = saved;
    return moved;
}

static bool join_cgroup(const char *procs_file) {
    if (move_to_cgroup(procs_file)) return true;
    dprintf(STDERR_FILENO, "paperclip-sandbox: cannot join the run's cgroup %s: %s\n", procs_file, strerror(errno));
    return false;
}

/*
 * A spare whose host went away without a run: back into the parent cgroup, then the run
 * cgroup it joined is removed, so nothing of it stays (best effort: a cgroup left behind
 * is swept by the host's next process).
 */
static void leave_cgroup(const char *procs_file) {
    char dir[4096], parent[4096];
    int length = snprintf(dir, sizeof dir, "%s", procs_file);
    char *slash = length > 0 && (size_t)length < sizeof dir ? strrchr(dir, '/') : NULL;
    if (!slash || slash == dir) return;
    *slash = '\0';
    snprintf(parent, sizeof parent, "%s", dir);
    char *parent_slash = strrchr(parent, '/');
    if (!parent_slash || parent_slash == parent) return;
    snprintf(parent_slash, sizeof parent - (size_t)(parent_slash - parent), "/cgroup.procs");
    if (move_to_cgroup(parent)) rmdir(dir);
}

static int exec_failure(const char *command) {
    int saved = errno;
    dprintf(STDERR_FILENO, "paperclip-sandbox: cannot start %s: %s\n", command, strerror(saved));
    return saved == ENOENT ? 127 : 126;
}

int cgroup_launch_main(int argc, char **argv) {
    /* argv: --cgroup <cgroup.procs> -- <command> [args...] */
    if (argc < 5 || strcmp(argv[3], "--") != 0) {
        dprintf(STDERR_FILENO, "usage: paperclip-sandbox-bridge --cgroup <cgroup.procs> -- <command> [args...]\n");
        return 125;
    }
    if (!join_cgroup(argv[2])) return 125;
    execvp(argv[4], argv + 4);
    return exec_failure(argv[4]);
}

/* The descriptor a spare reads its run on, and the largest request it takes (argv and env). */
#define SPARE_REQUEST_FD 5
#define SPARE_REQUEST_LIMIT (64U << 20)

/* Everything `fd` holds until its end, NUL-terminated; NULL on a read error or past the limit. */
static char *read_to_end(int fd, size_t *length) {
    size_t capacity = 64 * 1024, used = 0;
    char *buffer = malloc(capacity + 1);
    while (buffer) {
        if (used == capacity) {
            if (capacity >= SPARE_REQUEST_LIMIT) break;
            capacity *= 2;
            char *grown = realloc(buffer, capacity + 1);
            if (!grown) break;
            buffer = grown;
        }
        ssize_t got = read(fd, buffer + used, capacity - used);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) break;
        if (got == 0) {
            buffer[used] = '\0';
            *length = used;
            return buffer;
        }
        used += (size_t)got;
    }
    free(buffer);
    return NULL;
}

/* The NUL-terminated fields of `length` bytes, in an array with two free slots after them. */
static char **split_fields(char *text, size_t length, long *count) {
    size_t total = 0;
    for (size_t at = 0; at < length; at++) total += text[at] == '\0';
    char **fields = calloc(total + 2, sizeof *fields);
    if (!fields) return NULL;
    size_t index = 0;
    for (size_t start = 0; start < length && index < total; start += strlen(text + start) + 1)
        fields[index++] = text + start;
    *count = (long)index;
    return fields;
}

/*
 * --cgroup-spare PROCS: joins the cgroup now, then reads its run from fd 5 to the end:
 * NUL-terminated fields `flags`, `cwd`, `argc`, the argv (the command first, an absolute
 * path), then the environment. Flags: `n` puts /dev/null on stdin, `s` keeps fd 3 (bwrap's
 * status), `f` keeps fd 4 (bwrap's seccomp filter); the others, and every descriptor the
 * host left without close-on-exec, are closed. It then becomes
 * the command. An empty request (the host went away first) ends it quietly, and leaves
 * no cgroup behind.
 */
int cgroup_spare_main(int argc, char **argv) {
    if (argc != 3) {
        dprintf(STDERR_FILENO, "usage: paperclip-sandbox-bridge --cgroup-spare <cgroup.procs>\n");
        return 125;
    }
    bool joined = join_cgroup(argv[2]);
    size_t length = 0;
    char *request = read_to_end(SPARE_REQUEST_FD, &length);
    if (request && length == 0) {
        if (joined) leave_cgroup(argv[2]);
        return 0;
    }
    if (!joined) return 125;
    long count = 0;
    char **fields = request ? split_fields(request, length, &count) : NULL;
    long args = fields && count >= 4 ? strtol(fields[2], NULL, 10) : 0;
    /* Not `3 + args > count`: that overflows for an argc near LONG_MAX and lets it through. */
    if (args < 1 || args > count - 3 || fields[3][0] != '/') {
        dprintf(STDERR_FILENO, "paperclip-sandbox: malformed spare launcher request\n");
        return 125;
    }
    char **command = fields + 3;
    char **environment = command + args + 1;
    /* The environment moves up one slot so that the argv gets its terminating NULL. */
    memmove(environment, command + args, (size_t)(count - 3 - args) * sizeof *fields);
    command[args] = NULL;
    fields[count + 1] = NULL;
    const char *flags = fields[0];
    /* bwrap gets stdio and the descriptors it is told of, nothing the host inherited: it
       closes those two before the program starts, so the program needs no exec shim. */
    close_fds_from(SPARE_REQUEST_FD);
    if (!strchr(flags, 's')) close(3);
    if (!strchr(flags, 'f')) close(4);
    if (strchr(flags, 'n')) {
        int null_input = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (null_input < 0 || dup2(null_input, STDIN_FILENO) < 0) {
            dprintf(STDERR_FILENO, "paperclip-sandbox: cannot open /dev/null: %s\n", strerror(errno));
            return 125;
        }
        close(null_input);
    }
    if (chdir(fields[1]) != 0) {
        dprintf(STDERR_FILENO, "paperclip-sandbox: cannot enter %s: %s\n", fields[1], strerror(errno));
        return 125;
    }
    execve(command[0], command, environment);
    return exec_failure(command[0]);
}
