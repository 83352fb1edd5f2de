/*
 * The host's end of the tunnel handoff: `paperclip-sandbox-bridge --courier`.
 *
 * The host proxy spawns it with a Node IPC channel (NODE_CHANNEL_FD): Node can pass a
 * socket to a child process, but not over any other Unix socket. It is started ahead
 * of need: it says "ready" on stdout, then waits for a socket path on stdin (up to a
 * NUL), listens there and says "listening". It keeps exactly one connection: the first
 * whose peer is its own run's bridge (courier-peer.c; any other is closed at once), made
 * before the bridge starts the program; then it removes the socket file so nothing else
 * can connect. Each handle message from Node,
 *
 *   {"cmd":"NODE_HANDLE","type":"net.Socket","msg":{"id":"<16 hex>","drainOffset":N,"idleMs":N}}
 *
 * arrives with the upstream socket; the courier answers {"cmd":"NODE_HANDLE_ACK"} (Node
 * sends no further handle before it) and passes the record and the socket on to the
 * bridge. Sends to the bridge never block (a bridge the program stopped must not stall
 * the courier): records wait in a bounded queue, and one that waits longer than
 * OFFER_TIMEOUT_MS, or finds the queue full, is refused (the bridge never had it, so the
 * host relays that tunnel itself). What Node hears back, one JSON line each:
 *   {"handoff":"refused","id":"<16 hex>"}  the courier could not pass it, or the bridge
 *                                          had no connection for it: the host relays it;
 *   {"handoff":"taken","id":"<16 hex>"}    the bridge's connection took it (it will drain);
 *   {"handoff":"closed","id":"<16 hex>"}   a handed-off tunnel ended in the bridge;
 *   {"handoff":"bridge-gone"}              the bridge's connection ended: so did its tunnels.
 * It ends when Node closes the channel, or when the host process dies.
 *
 * This is Node's internal IPC framing for serialization "json" (lib/internal/child_process.js),
 * not a documented API: docs/adapter-utils/native-bridge.md says what it relies on, and
 * test/courier-ipc-frame.test.ts checks it on every Node the suite runs on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "bridge.h"

#define LINE_LIMIT (64 * 1024)
#define PENDING_LIMIT 64
/* Records for the bridge not yet sent; past the limit, or the timeout, an offer is refused. */
#define OUTGOING_LIMIT 64
#define OFFER_TIMEOUT_MS 5000

static int channel = -1;
static int bridge = -1;
static int pending[PENDING_LIMIT];
static size_t pending_count;

struct outgoing {
    unsigned char record[HANDOFF_RECORD_LENGTH];
    uint64_t id;
    int upstream;
    int64_t queued_at_ms;
};
static struct outgoing outgoing[OUTGOING_LIMIT];
static size_t outgoing_count;

static int64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static void send_to_node(const char *line) {
    size_t length = strlen(line);
    for (size_t done = 0; done < length;) {
        ssize_t n = write(channel, line + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) exit(0); /* the host is gone */
        done += (size_t)n;
    }
}

/* Tells Node about a handoff: {"handoff":"refused"|"closed","id":"<16 hex>"}. */
static void report(const char *what, uint64_t id) {
    char line[80];
    snprintf(line, sizeof line, "{\"handoff\":\"%s\",\"id\":\"%016" PRIx64 "\"}\n", what, id);
    send_to_node(line);
}

/* The value after `"key":` in a flat JSON message: a quoted 16-hex id or a decimal number. */
static bool read_field(const char *line, const char *key, int base, uint64_t *value) {
    char pattern[32];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(line, pattern);
    if (!at) return false;
    at += strlen(pattern);
    if (base == 16 && *at++ != '"') return false;
    char *end = NULL;
    errno = 0;
    unsigned long long parsed = strtoull(at, &end, base);
    if (errno != 0 || end == at || (base == 16 && (end - at != 16 || *end != '"'))) return false;
    *value = (uint64_t)parsed;
    return true;
}

static int take_pending(void) {
    if (pending_count == 0) return -1;
    int fd = pending[0];
    memmove(pending, pending + 1, --pending_count * sizeof pending[0]);
    return fd;
}

static void drop_outgoing(size_t index, bool refuse) {
    struct outgoing entry = outgoing[index];
    close(entry.upstream);
    memmove(outgoing + index, outgoing + index + 1, (--outgoing_count - index) * sizeof outgoing[0]);
    if (refuse) report("refused", entry.id);
}

static void bridge_gone(void);

/* Sends what the queue holds, in order, as far as the bridge takes it without blocking. */
static void flush_outgoing(void) {
    while (outgoing_count > 0 && bridge >= 0) {
        ssize_t sent = send_with_fd(bridge, outgoing[0].record, HANDOFF_RECORD_LENGTH, outgoing[0].upstream);
        if (sent == HANDOFF_RECORD_LENGTH) {
            drop_outgoing(0, false);
            continue;
        }
        if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        /* Failed, or part of a record sent: the stream to the bridge cannot be trusted. */
        bridge_gone();
    }
}

/* Offers the bridge has not taken in time were never the bridge's: the host keeps them. */
static void expire_outgoing(void) {
    int64_t now = now_ms();
    while (outgoing_count > 0 && now - outgoing[0].queued_at_ms >= OFFER_TIMEOUT_MS) drop_outgoing(0, true);
}

static void pass_on(const char *line) {
    int upstream = take_pending();
    send_to_node("{\"cmd\":\"NODE_HANDLE_ACK\"}\n");
    uint64_t id = 0;
    uint64_t drain_offset = 0;
    uint64_t idle_ms = 0;
    bool parsed = read_field(line, "id", 16, &id) && read_field(line, "drainOffset", 10, &drain_offset) &&
                  read_field(line, "idleMs", 10, &idle_ms);
    if (parsed && upstream >= 0 && bridge >= 0 && outgoing_count < OUTGOING_LIMIT) {
        struct outgoing *entry = &outgoing[outgoing_count++];
        put_u64(entry->record, id);
        put_u64(entry->record + 8, drain_offset);
        put_u64(entry->record + 16, idle_ms);
        entry->id = id;
        entry->upstream = upstream;
        entry->queued_at_ms = now_ms();
        flush_outgoing();
        return;
    }
    if (upstream >= 0) close(upstream);
    if (parsed) report("refused", id);
}

/* Node -> courier: JSON lines, each handle message with its socket. */
static void read_channel(char *line, size_t *filled) {
    int fds[4];
    size_t fd_count = sizeof fds / sizeof fds[0];
    ssize_t n = receive_with_fds(channel, line + *filled, LINE_LIMIT - 1 - *filled, fds, &fd_count);
    for (size_t i = 0; i < fd_count; i++) {
        if (pending_count < PENDING_LIMIT) pending[pending_count++] = fds[i];
        else close(fds[i]);
    }
    if (n <= 0) exit(0); /* channel closed: the proxy is closing, or the host is gone */
    *filled += (size_t)n;
    line[*filled] = '\0';
    char *start = line;
    for (char *end; (end = strchr(start, '\n')); start = end + 1) {
        *end = '\0';
        if (strstr(start, "\"cmd\":\"NODE_HANDLE\"")) {
            pass_on(start);
            continue;
        }
        /* An offer that came without its socket (Node sends none for a socket it already closed). */
        uint64_t id;
        if (read_field(start, "id", 16, &id)) report("refused", id);
    }
    *filled -= (size_t)(start - line);
    memmove(line, start, *filled);
    /* Node writes no line this long; a channel that does is not Node's. */
    if (*filled >= LINE_LIMIT - 1) exit(1);
}

/* The bridge's connection ended: so did every tunnel it held, and every offer still queued. */
static void bridge_gone(void) {
    if (bridge < 0) return;
    close(bridge);
    bridge = -1;
    while (outgoing_count > 0) drop_outgoing(0, true);
    send_to_node("{\"handoff\":\"bridge-gone\"}\n");
}

/* Bridge -> courier: reports (kind, id); the bridge gone means every tunnel it held is gone. */
static void read_reports(unsigned char *partial, size_t *filled) {
    ssize_t n = recv(bridge, partial + *filled, HANDOFF_REPORT_LENGTH - *filled, 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (n <= 0) {
        bridge_gone();
        return;
    }
    *filled += (size_t)n;
    if (*filled < HANDOFF_REPORT_LENGTH) return;
    *filled = 0;
    uint64_t kind = get_u64(partial);
    uint64_t id = get_u64(partial + 8);
    if (kind == HANDOFF_REFUSED) report("refused", id);
    else if (kind == HANDOFF_CLOSED) report("closed", id);
    else if (kind == HANDOFF_TAKEN) report("taken", id);
}

static int listen_at(const char *socket_path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(socket_path) >= sizeof address.sun_path) return -1;
    strcpy(address.sun_path, socket_path);
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0) return -1;
    mode_t previous = umask(077);
    int bound = bind(listener, (struct sockaddr *)&address, sizeof address);
    umask(previous);
    if (bound != 0 || listen(listener, 1) != 0) {
        close(listener);
        return -1;
    }
    return listener;
}

/* The socket path, as the host writes it on stdin: bytes up to a NUL. */
static bool read_socket_path(char *path, size_t size) {
    size_t filled = 0;
    for (;;) {
        ssize_t n = read(STDIN_FILENO, path + filled, 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        if (path[filled] == '\0') return true;
        if (++filled == size) return false;
    }
}

int courier_main(void) {
    const char *channel_text = getenv("NODE_CHANNEL_FD");
    channel = channel_text ? atoi(channel_text) : -1;
    if (channel < 0) {
        dprintf(STDERR_FILENO, "paperclip-sandbox courier: no Node IPC channel (NODE_CHANNEL_FD)\n");
        return 2;
    }
    /* Ends with the host process that started it: a courier left behind would hold host sockets. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
        dprintf(STDERR_FILENO, "paperclip-sandbox courier: cannot tie itself to its parent: %s\n", strerror(errno));
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    /* Started ahead of need: it says it runs, then waits for the run that takes it.
       Its name in ps (/proc/<pid>/comm) says which it is: a spare, or serving a proxy. */
    prctl(PR_SET_NAME, "courier-spare");
    if (write(STDOUT_FILENO, "ready\n", 6) != 6) return 1;
    char socket_path[sizeof ((struct sockaddr_un *)0)->sun_path];
    if (!read_socket_path(socket_path, sizeof socket_path)) return 0;
    int listener = listen_at(socket_path);
    if (listener < 0) {
        dprintf(STDOUT_FILENO, "failed: cannot listen on %s: %s\n", socket_path, strerror(errno));
        return 1;
    }
    prctl(PR_SET_NAME, "courier-serving");
    if (write(STDOUT_FILENO, "listening\n", 10) != 10) return 1;
    close(STDOUT_FILENO);
    close(STDIN_FILENO);

    char run_dir_buffer[sizeof socket_path];
    memcpy(run_dir_buffer, socket_path, sizeof socket_path);
    const char *run_dir = dirname(run_dir_buffer);

    static char line[LINE_LIMIT];
    size_t line_filled = 0;
    unsigned char partial_report[HANDOFF_REPORT_LENGTH];
    size_t report_filled = 0;
    for (;;) {
        struct pollfd fds[2] = {{.fd = channel, .events = POLLIN}, {.fd = -1}};
        if (listener >= 0) fds[1] = (struct pollfd){.fd = listener, .events = POLLIN};
        else if (bridge >= 0)
            fds[1] = (struct pollfd){.fd = bridge, .events = (short)(POLLIN | (outgoing_count > 0 ? POLLOUT : 0))};
        int timeout = -1;
        if (outgoing_count > 0) {
            int64_t left = outgoing[0].queued_at_ms + OFFER_TIMEOUT_MS - now_ms();
            timeout = left > 0 ? (int)left : 0;
        }
        if (poll(fds, 2, timeout) < 0) continue;
        if (fds[0].revents) read_channel(line, &line_filled);
        if (listener >= 0 && fds[1].revents) {
            int connection = accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
            if (connection < 0) continue;
            /* A stranger that got here first is turned away; the bridge's own connection is kept. */
            if (!courier_peer_is_own_bridge(connection, run_dir)) {
                close(connection);
                continue;
            }
            bridge = connection;
            close(listener);
            listener = -1;
            unlink(socket_path);
        } else if (bridge >= 0 && fds[1].revents) {
            if (fds[1].revents & POLLOUT) flush_outgoing();
            if (bridge >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) read_reports(partial_report, &report_filled);
        }
        expire_outgoing();
    }
}
