/*
 * One accepted connection, relayed by one thread: poll(2) for readiness, splice(2)
 * through a pipe per direction, so the bytes never enter user space.
 *
 * Phases of a connection the bridge registered for handoff (handoff.c):
 *   relaying  client <-> proxy connection, as a plain relay;
 *   draining  a grant arrived: the client is no longer read; what is pending goes to
 *             the proxy, whose write side is then shut (the host forwards what it still
 *             holds); proxy bytes up to the grant's drain offset still go to the client;
 *             the byte at that offset is the host's "drained" mark;
 *   direct    client <-> upstream socket. The proxy connection stays open as a
 *             lifeline: when the host closes it (proxy closed, or the host gave up),
 *             the tunnel ends.
 * Each direction half-closes its destination after its source's end-of-stream;
 * any failure shuts every socket of the connection down.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bridge.h"

#define RELAY_CHUNK (256 * 1024)
#define RELAY_PIPE_SIZE (256 * 1024)
#define TRANSFER_ROUNDS 8

enum phase { RELAYING, DRAINING, DIRECT };

struct flow {
    int from;
    int to;
    int pipe_read;
    int pipe_write;
    size_t buffered;
    /* The last fill found the pipe full: wait for a flush before reading `from` again. */
    bool pipe_full;
    /* Worth a read or a write: poll said so, or the last one moved bytes (saves the EAGAIN calls). */
    bool readable;
    bool writable;
    bool ended; /* `from` reached end-of-stream */
    bool shut;  /* `to`'s write side is shut down */
};

struct connection {
    int client;
    int proxy;
    int upstream;
    enum phase phase;
    struct flow out; /* client -> proxy, then client -> upstream */
    struct flow in;  /* proxy -> client, then upstream -> client */
    uint64_t from_proxy;
    /* On relay.sock the host writes the connection's id first; it is read, not relayed. */
    bool awaiting_id;
    unsigned char id[CONNECTION_ID_LENGTH];
    size_t id_read;
    bool registered;
    struct handoff_slot slot;
    struct handoff_grant grant;
    struct timespec last_activity;
};

enum step { STEP_IDLE, STEP_MOVED, STEP_FAILED };

static void set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static bool open_flow(struct flow *flow, int from, int to) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return false;
    fcntl(fds[1], F_SETPIPE_SZ, RELAY_PIPE_SIZE);
    *flow = (struct flow){.from = from, .to = to, .pipe_read = fds[0], .pipe_write = fds[1], .readable = true,
                          .writable = true};
    return true;
}

static void close_flow(struct flow *flow) {
    close(flow->pipe_read);
    close(flow->pipe_write);
}

/* Source -> pipe, at most `limit` bytes. */
static enum step fill(struct flow *flow, size_t limit) {
    if (flow->ended || flow->pipe_full || !flow->readable || limit == 0) return STEP_IDLE;
    ssize_t n = splice(flow->from, NULL, flow->pipe_write, NULL, limit, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    if (n > 0) {
        flow->buffered += (size_t)n;
        return STEP_MOVED;
    }
    if (n == 0) {
        flow->ended = true;
        return STEP_MOVED;
    }
    if (errno == EAGAIN) {
        /* With bytes in the pipe, EAGAIN may be the pipe's: wait for a flush, not for the source. */
        if (flow->buffered > 0) flow->pipe_full = true;
        else flow->readable = false;
        return STEP_IDLE;
    }
    return errno == EINTR ? STEP_IDLE : STEP_FAILED;
}

/* Pipe -> destination; then, after the source's end, the destination's half-close. */
static enum step flush(struct flow *flow) {
    enum step result = STEP_IDLE;
    if (flow->buffered > 0 && flow->writable) {
        ssize_t n = splice(flow->pipe_read, NULL, flow->to, NULL, flow->buffered, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
        if (n > 0) {
            flow->buffered -= (size_t)n;
            flow->pipe_full = false;
            result = STEP_MOVED;
        } else if (n < 0 && errno == EAGAIN) {
            flow->writable = false;
        } else if (n < 0 && errno != EINTR) {
            return STEP_FAILED;
        }
    }
    if (flow->ended && flow->buffered == 0 && !flow->shut) {
        shutdown(flow->to, SHUT_WR);
        flow->shut = true;
        result = STEP_MOVED;
    }
    return result;
}

/* Adds a poll entry and returns its index. */
static int add_poll(struct pollfd *fds, nfds_t *count, int fd, short events) {
    fds[*count] = (struct pollfd){.fd = fd, .events = events};
    return (int)(*count)++;
}

static uint64_t elapsed_ms(const struct timespec *since) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t ms = (int64_t)(now.tv_sec - since->tv_sec) * 1000 + (now.tv_nsec - since->tv_nsec) / 1000000;
    return ms < 0 ? 0 : (uint64_t)ms;
}

/* A grant arrived: stop reading the client and let the host drain what it holds. */
static bool start_draining(struct connection *connection) {
    if (!handoff_take(&connection->slot, &connection->grant)) return true;
    connection->upstream = connection->grant.upstream;
    set_nonblocking(connection->upstream);
    /* The host never writes past the offset it named, and it cannot drain a proxy leg that ended. */
    if (connection->from_proxy > connection->grant.drain_offset || connection->in.ended) return false;
    connection->phase = DRAINING;
    return true;
}

/* In the draining phase: the host's mark at the drain offset switches the tunnel to its upstream socket. */
static enum step read_drained_mark(struct connection *connection) {
    if (connection->from_proxy != connection->grant.drain_offset) return STEP_IDLE;
    unsigned char mark;
    ssize_t n = recv(connection->proxy, &mark, 1, MSG_DONTWAIT);
    if (n < 0) return errno == EAGAIN || errno == EINTR ? STEP_IDLE : STEP_FAILED;
    if (n == 0 || mark != HANDOFF_DRAINED_MARK) return STEP_FAILED;
    struct flow *in = &connection->in;
    struct flow *out = &connection->out;
    in->from = connection->upstream;
    out->to = connection->upstream;
    in->readable = true;
    out->readable = true;
    out->writable = true;
    out->shut = false;
    connection->phase = DIRECT;
    clock_gettime(CLOCK_MONOTONIC, &connection->last_activity);
    return STEP_MOVED;
}

/* The host's first bytes on relay.sock: the connection's id, under which grants come. */
static enum step read_connection_id(struct connection *connection) {
    struct flow *in = &connection->in;
    if (!in->readable) return STEP_IDLE;
    ssize_t n = recv(connection->proxy, connection->id + connection->id_read,
                     CONNECTION_ID_LENGTH - connection->id_read, MSG_DONTWAIT);
    if (n < 0) {
        if (errno != EAGAIN && errno != EINTR) return STEP_FAILED;
        in->readable = false;
        return STEP_IDLE;
    }
    if (n == 0) {
        in->ended = true;
        return STEP_MOVED;
    }
    connection->id_read += (size_t)n;
    connection->from_proxy += (uint64_t)n;
    if (connection->id_read == CONNECTION_ID_LENGTH) {
        connection->awaiting_id = false;
        /* Without a registry entry the connection is relayed, never handed off. */
        connection->registered = handoff_register(&connection->slot, get_u64(connection->id));
    }
    return STEP_MOVED;
}

/* Waits until a socket of the connection is ready; handles a grant and the lifeline. */
static bool wait_for_events(struct connection *connection) {
    struct flow *out = &connection->out;
    struct flow *in = &connection->in;
    struct pollfd fds[6];
    nfds_t count = 0;
    int timeout = -1;
    int wake = -1;
    int lifeline = -1;
    if (connection->phase == RELAYING && connection->registered)
        wake = add_poll(fds, &count, connection->slot.wake_fd, POLLIN);
    int out_read = -1, out_write = -1, in_read = -1, in_write = -1;
    if (connection->phase != DRAINING && !out->ended && !out->pipe_full)
        out_read = add_poll(fds, &count, out->from, POLLIN);
    if (out->buffered > 0) out_write = add_poll(fds, &count, out->to, POLLOUT);
    if (!in->ended && !in->pipe_full) in_read = add_poll(fds, &count, in->from, POLLIN);
    if (in->buffered > 0) in_write = add_poll(fds, &count, in->to, POLLOUT);
    if (connection->phase == DIRECT) {
        /* The proxy connection only says when the host wants the tunnel gone: any event ends it. */
        lifeline = add_poll(fds, &count, connection->proxy, POLLIN);
        uint64_t idle_ms = connection->grant.idle_ms;
        if (idle_ms > 0) {
            uint64_t elapsed = elapsed_ms(&connection->last_activity);
            if (elapsed >= idle_ms) return false;
            uint64_t left = idle_ms - elapsed;
            timeout = left > INT32_MAX ? INT32_MAX : (int)left;
        }
    }
    if (poll(fds, count, timeout) < 0 && errno != EINTR) return false;
    /* Any event counts: an error or a hang-up is for the next call to report. */
    if (out_read >= 0 && fds[out_read].revents) out->readable = true;
    if (out_write >= 0 && fds[out_write].revents) out->writable = true;
    if (in_read >= 0 && fds[in_read].revents) in->readable = true;
    if (in_write >= 0 && fds[in_write].revents) in->writable = true;
    if (wake >= 0 && fds[wake].revents != 0 && !start_draining(connection)) return false;
    return lifeline < 0 || fds[lifeline].revents == 0;
}

/* One round of moving bytes both ways, without blocking. */
static enum step transfer(struct connection *connection) {
    struct flow *out = &connection->out;
    struct flow *in = &connection->in;
    bool moved = false;
    enum step step;
    if (connection->phase != DRAINING) {
        if ((step = fill(out, RELAY_CHUNK)) == STEP_FAILED) return STEP_FAILED;
        moved |= step == STEP_MOVED;
    }
    if (connection->phase == DRAINING && out->buffered == 0 && !out->shut) {
        shutdown(connection->proxy, SHUT_WR);
        out->shut = true;
    }
    if ((step = flush(out)) == STEP_FAILED) return STEP_FAILED;
    moved |= step == STEP_MOVED;

    if (connection->awaiting_id) {
        if ((step = read_connection_id(connection)) == STEP_FAILED) return STEP_FAILED;
        moved |= step == STEP_MOVED;
        if (connection->awaiting_id && !in->ended) return moved ? STEP_MOVED : STEP_IDLE;
    }
    bool reading_proxy = in->from == connection->proxy;
    size_t limit = RELAY_CHUNK;
    if (connection->phase == DRAINING) {
        uint64_t left = connection->grant.drain_offset - connection->from_proxy;
        limit = left < RELAY_CHUNK ? (size_t)left : RELAY_CHUNK;
    }
    size_t before = in->buffered;
    if ((step = fill(in, limit)) == STEP_FAILED) return STEP_FAILED;
    if (reading_proxy) connection->from_proxy += in->buffered - before;
    /* The host ends its proxy leg before the mark only when it gave the tunnel up. */
    if (connection->phase == DRAINING && in->ended) return STEP_FAILED;
    moved |= step == STEP_MOVED;
    if ((step = flush(in)) == STEP_FAILED) return STEP_FAILED;
    moved |= step == STEP_MOVED;

    if (connection->phase == DRAINING && out->shut) {
        if ((step = read_drained_mark(connection)) == STEP_FAILED) return STEP_FAILED;
        moved |= step == STEP_MOVED;
    }
    if (moved && connection->phase == DIRECT) clock_gettime(CLOCK_MONOTONIC, &connection->last_activity);
    return moved ? STEP_MOVED : STEP_IDLE;
}

static bool relay_step(struct connection *connection) {
    if (!wait_for_events(connection)) return false;
    /* Moves until nothing moves (a few rounds at most) before polling again: fewer calls per byte. */
    for (int round = 0; round < TRANSFER_ROUNDS; round++) {
        enum step step = transfer(connection);
        if (step == STEP_FAILED) return false;
        if (step == STEP_IDLE) break;
    }
    return true;
}

static void relay(struct connection *connection) {
    for (;;) {
        if (!relay_step(connection)) {
            shutdown(connection->client, SHUT_RDWR);
            shutdown(connection->proxy, SHUT_RDWR);
            if (connection->upstream >= 0) shutdown(connection->upstream, SHUT_RDWR);
            return;
        }
        if (connection->phase != DRAINING && connection->out.shut && connection->in.shut) return;
    }
}

static int connect_proxy(void) {
    int proxy = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (proxy < 0) return -1;
    const struct sockaddr_un *address = handoff_proxy_address();
    if (connect(proxy, (const struct sockaddr *)address, sizeof *address) != 0) {
        close(proxy);
        return -1;
    }
    return proxy;
}

void *serve_connection(void *argument) {
    struct connection *connection = calloc(1, sizeof *connection);
    int client = (int)(intptr_t)argument;
    int proxy = connection ? connect_proxy() : -1;
    if (proxy < 0) {
        free(connection);
        close(client);
        return NULL;
    }
    connection->client = client;
    connection->proxy = proxy;
    connection->upstream = -1;
    connection->phase = RELAYING;
    connection->awaiting_id = handoff_proxy_address() != &proxy_address;
    bool flows = open_flow(&connection->out, client, proxy);
    if (flows && !open_flow(&connection->in, proxy, client)) {
        close_flow(&connection->out);
        flows = false;
    }
    if (flows) {
        set_nonblocking(client);
        set_nonblocking(proxy);
        relay(connection);
        if (connection->registered) handoff_close(&connection->slot);
        close_flow(&connection->out);
        close_flow(&connection->in);
    }
    close(client);
    close(proxy);
    if (connection->upstream >= 0) close(connection->upstream);
    /* After the close: the host then finds the tunnel gone on every side. */
    if (connection->registered && connection->phase != RELAYING) handoff_report(HANDOFF_CLOSED, connection->slot.id);
    free(connection);
    return NULL;
}
