/*
 * The bridge's end of the tunnel handoff. At start the bridge connects to the
 * courier's socket, the sibling of proxy.sock; the courier accepts that one
 * connection and no other, and the program starts only afterwards. A reader thread
 * then takes each record (id, drain offset, idle ms, one upstream socket) and gives
 * it to the connection registered under that id, waking its relay through an
 * eventfd. A record for no live connection is refused: its id goes back to the
 * courier, so the host keeps relaying that tunnel itself, and its socket is closed.
 * The end of a handed-off tunnel is reported the same way: the host cannot see it on
 * the proxy connection, whose read side the bridge already ended for the drain.
 * The host names each connection: it writes the id first on every connection to
 * relay.sock. A program that connects there itself learns its own connection's id,
 * which names no connection of the bridge's registry.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bridge.h"

static int courier = -1;
static struct sockaddr_un bridge_socket_address;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct handoff_slot *registry;

void put_u64(unsigned char *to, uint64_t value) {
    for (int i = 7; i >= 0; i--, value >>= 8) to[i] = (unsigned char)(value & 0xff);
}

uint64_t get_u64(const unsigned char *from) {
    uint64_t value = 0;
    for (int i = 0; i < 8; i++) value = (value << 8) | from[i];
    return value;
}

void handoff_report(enum handoff_report_kind kind, uint64_t id) {
    unsigned char report[HANDOFF_REPORT_LENGTH];
    put_u64(report, (uint64_t)kind);
    put_u64(report + 8, id);
    /* Connection threads report concurrently; a report is never split. A courier that is
       gone has nothing to tell the host, which then sees the bridge go too. */
    pthread_mutex_lock(&report_lock);
    (void)send(courier, report, sizeof report, MSG_NOSIGNAL);
    pthread_mutex_unlock(&report_lock);
}

static void deliver(const unsigned char *record, int upstream) {
    uint64_t id = get_u64(record);
    pthread_mutex_lock(&registry_lock);
    struct handoff_slot *slot = registry;
    while (slot && slot->id != id) slot = slot->next;
    bool taken = slot && !slot->granted && upstream >= 0;
    if (taken) {
        slot->granted = true;
        slot->grant.upstream = upstream;
        slot->grant.drain_offset = get_u64(record + 8);
        slot->grant.idle_ms = get_u64(record + 16);
        uint64_t one = 1;
        (void)!write(slot->wake_fd, &one, sizeof one);
        upstream = -1;
    }
    pthread_mutex_unlock(&registry_lock);
    if (upstream >= 0) close(upstream);
    handoff_report(taken ? HANDOFF_TAKEN : HANDOFF_REFUSED, id);
}

static void *read_grants(void *unused) {
    (void)unused;
    unsigned char record[HANDOFF_RECORD_LENGTH];
    size_t filled = 0;
    int pending = -1; /* the socket that came with the record being read */
    for (;;) {
        int fds[4];
        size_t fd_count = sizeof fds / sizeof fds[0];
        ssize_t n = receive_with_fds(courier, record + filled, sizeof record - filled, fds, &fd_count);
        for (size_t i = 0; i < fd_count; i++) {
            /* One socket per record; a surplus one is not ours to keep. */
            if (pending < 0) pending = fds[i];
            else close(fds[i]);
        }
        if (n <= 0) break;
        filled += (size_t)n;
        if (filled < sizeof record) continue;
        deliver(record, pending);
        pending = -1;
        filled = 0;
    }
    /* Without its courier the bridge keeps relaying through the host proxy. */
    if (pending >= 0) close(pending);
    return NULL;
}

/* `<directory of proxy_socket_path>/<name>` into `address`; false when it does not fit. */
static bool sibling_address(const char *proxy_socket_path, const char *name, struct sockaddr_un *address) {
    *address = (struct sockaddr_un){.sun_family = AF_UNIX};
    const char *slash = strrchr(proxy_socket_path, '/');
    size_t dir_length = slash ? (size_t)(slash - proxy_socket_path + 1) : 0;
    size_t name_length = strlen(name) + 1;
    if (dir_length + name_length > sizeof address->sun_path) return false;
    memcpy(address->sun_path, proxy_socket_path, dir_length);
    memcpy(address->sun_path + dir_length, name, name_length);
    return true;
}

enum handoff_start handoff_connect(const char *proxy_socket_path) {
    struct sockaddr_un address;
    if (!sibling_address(proxy_socket_path, HANDOFF_SOCKET_NAME, &address) ||
        !sibling_address(proxy_socket_path, BRIDGE_SOCKET_NAME, &bridge_socket_address))
        return HANDOFF_NONE;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return HANDOFF_BROKEN;
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int failure = errno;
        close(fd);
        errno = failure;
        return failure == ENOENT || failure == ECONNREFUSED ? HANDOFF_NONE : HANDOFF_BROKEN;
    }
    courier = fd;
    pthread_t reader;
    if (pthread_create(&reader, &thread_attr, read_grants, NULL) != 0) return HANDOFF_BROKEN;
    return HANDOFF_READY;
}

const struct sockaddr_un *handoff_proxy_address(void) {
    return courier >= 0 ? &bridge_socket_address : &proxy_address;
}

bool handoff_register(struct handoff_slot *slot, uint64_t id) {
    slot->id = id;
    slot->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (slot->wake_fd < 0) return false;
    slot->granted = false;
    pthread_mutex_lock(&registry_lock);
    slot->next = registry;
    registry = slot;
    pthread_mutex_unlock(&registry_lock);
    return true;
}

bool handoff_take(struct handoff_slot *slot, struct handoff_grant *grant) {
    uint64_t count;
    (void)!read(slot->wake_fd, &count, sizeof count);
    pthread_mutex_lock(&registry_lock);
    bool granted = slot->granted && slot->grant.upstream >= 0;
    if (granted) {
        *grant = slot->grant;
        slot->grant.upstream = -1;
    }
    pthread_mutex_unlock(&registry_lock);
    return granted;
}

void handoff_close(struct handoff_slot *slot) {
    pthread_mutex_lock(&registry_lock);
    for (struct handoff_slot **link = &registry; *link; link = &(*link)->next) {
        if (*link == slot) {
            *link = slot->next;
            break;
        }
    }
    int unused = slot->granted ? slot->grant.upstream : -1;
    slot->grant.upstream = -1;
    pthread_mutex_unlock(&registry_lock);
    if (unused >= 0) close(unused);
    close(slot->wake_fd);
}
