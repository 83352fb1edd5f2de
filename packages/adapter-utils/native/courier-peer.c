/*
 * The courier passes host sockets to one connection only, so it must be the bridge of
 * its own run, not a stranger that reached pass.sock first (another run's program that
 * could see the directory). SO_PEERCRED names the peer's pid, as this process sees it;
 * from there the courier walks up the peer's parents, through every pid namespace nested
 * below its own (the bridge, the sandbox's pid 1), to the first process of its own pid
 * namespace: the bwrap that started that sandbox. Its options (before its "--") must
 * name this run's private directory exactly: the bind source of its proxy directory,
 * unique per run. A program
 * of another sandbox walks up to another bwrap, and cannot start a bwrap of its own
 * with a pid namespace (no capabilities, user namespaces denied by the seccomp filter).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bridge.h"

#define MAX_NESTING 16
#define CMDLINE_LIMIT (256 * 1024)

/* Depth of `pid`'s pid namespace (entries of NSpid) and its parent, from /proc/<pid>/status. */
static bool read_status(pid_t pid, int *depth, pid_t *parent) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *file = fopen(path, "re");
    if (!file) return false;
    char line[512];
    bool has_depth = false;
    bool has_parent = false;
    while (fgets(line, sizeof line, file)) {
        if (strncmp(line, "PPid:", 5) == 0) {
            *parent = (pid_t)atoi(line + 5);
            has_parent = true;
        } else if (strncmp(line, "NSpid:", 6) == 0) {
            int count = 0;
            for (char *word = strtok(line + 6, " \t\n"); word; word = strtok(NULL, " \t\n")) count++;
            *depth = count;
            has_depth = true;
        }
    }
    fclose(file);
    return has_depth && has_parent;
}

/* Whether one of bwrap's own options (the arguments before its "--") is exactly `wanted`: the
   program's arguments after it may carry anything, a caller's prompt or an attacker's path. */
static bool bwrap_options_have(pid_t pid, const char *wanted) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    char *buffer = malloc(CMDLINE_LIMIT + 1);
    size_t filled = 0;
    for (ssize_t n; buffer && filled < CMDLINE_LIMIT && (n = read(fd, buffer + filled, CMDLINE_LIMIT - filled)) > 0;)
        filled += (size_t)n;
    close(fd);
    bool found = false;
    if (buffer) {
        buffer[filled] = '\0';
        for (size_t at = 0; at < filled && !found; at += strlen(buffer + at) + 1) {
            if (strcmp(buffer + at, "--") == 0) break;
            found = strcmp(buffer + at, wanted) == 0;
        }
        free(buffer);
    }
    return found;
}

bool courier_peer_is_own_bridge(int connection, const char *run_dir) {
    struct ucred peer;
    socklen_t length = sizeof peer;
    if (getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0 || peer.pid <= 0) return false;
    int own_depth = 0;
    pid_t unused;
    if (!read_status(getpid(), &own_depth, &unused)) return false;
    pid_t pid = peer.pid;
    for (int step = 0; step < MAX_NESTING; step++) {
        int depth = 0;
        pid_t parent = 0;
        if (!read_status(pid, &depth, &parent)) return false;
        /* The peer itself must be sandboxed: a process of the host's own namespace is no bridge. */
        if (depth <= own_depth) return step > 0 && depth == own_depth && bwrap_options_have(pid, run_dir);
        if (parent <= 0) return false;
        pid = parent;
    }
    return false;
}
