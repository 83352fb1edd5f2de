/*
 * Shared declarations of the native bridge binary (paperclip-sandbox-bridge).
 *
 *   bridge.c   the in-sandbox bridge: listens, starts the program, forwards signals
 *   relay.c    one accepted connection, relayed with poll(2) and splice(2)
 *   handoff.c  the bridge's end of the tunnel handoff (receives connected upstream sockets)
 *   courier.c  the host's end of the tunnel handoff (`--courier`, spawned by the host proxy)
 *   fd-passing.c  descriptors over Unix sockets (SCM_RIGHTS), for both ends
 *   courier-peer.c  the courier's check that its one connection is its own run's bridge
 *   exec-program.c  descriptors closed before the program, `--cgroup` and `--cgroup-spare`
 *
 * The scopes without a bridge start their program through a separate binary, the
 * freestanding exec shim (exec-shim/exec-shim.c, paperclip-sandbox-exec), not this one.
 *   own-filter.c  the program's seccomp filter, for callers that spawn bwrap without --seccomp
 *
 * Tunnel handoff: once the host proxy has checked and connected an allowed CONNECT
 * tunnel, it passes the connected upstream socket (SCM_RIGHTS) through the courier to
 * the bridge, which then moves the tunnel's bytes itself; the host process leaves the
 * data path. The wire contract is written out in docs/adapter-utils/handoff.md.
 */
#ifndef PAPERCLIP_SANDBOX_BRIDGE_H
#define PAPERCLIP_SANDBOX_BRIDGE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/un.h>

/* Version 4: relays hand off to upstream sockets passed in by the courier; --cgroup, --cgroup-spare,
   PAPERCLIP_SANDBOX_COURIER. (Its --exec mode, which the package no longer asks for, became
   the exec shim.) */
#define BRIDGE_PROTOCOL_VERSION "4"

/* Siblings of proxy.sock in the run's private directory, no longer than it: the courier's
   socket, and the proxy's socket for bridge connections, on which the host first writes
   the connection's 8-byte id (big-endian), the name grants use. */
#define HANDOFF_SOCKET_NAME "pass.sock"
#define BRIDGE_SOCKET_NAME "relay.sock"
#define CONNECTION_ID_LENGTH 8

/* The byte the host writes at the drain offset once it has forwarded everything it holds. */
#define HANDOFF_DRAINED_MARK 0x00

/* One handoff, courier -> bridge: three big-endian u64 (id, drain offset, idle ms) and one fd. */
#define HANDOFF_RECORD_LENGTH 24

/* One report, bridge -> courier: two big-endian u64 (kind, id). */
#define HANDOFF_REPORT_LENGTH 16
enum handoff_report_kind {
    HANDOFF_REFUSED = 1, /* no live connection took the grant: the host relays that tunnel itself */
    HANDOFF_CLOSED = 2,  /* a handed-off tunnel ended: the host closes its lifeline */
    HANDOFF_TAKEN = 3,   /* a connection took the grant: the host may write the mark once drained */
};

/* What the bridge found at start: no courier (relay through the proxy only), a courier it is
   connected to, or a courier it could not reach (it must not start the program then: the
   courier would take the next connection, which could be the program's). */
enum handoff_start { HANDOFF_NONE, HANDOFF_READY, HANDOFF_BROKEN };

/* Connection, courier to bridge: id, drain offset, idle limit; with the upstream socket. */
struct handoff_grant {
    int upstream;
    uint64_t drain_offset;
    uint64_t idle_ms;
};

/* A connection's place in the handoff registry, once the host named it. */
struct handoff_slot {
    uint64_t id;
    int wake_fd; /* eventfd, readable once a grant arrived */
    bool granted;
    struct handoff_grant grant;
    struct handoff_slot *next;
};

extern struct sockaddr_un proxy_address;
extern pthread_attr_t thread_attr;

/* relay.c: serves one accepted client socket (passed as intptr_t); the thread's whole life. */
void *serve_connection(void *argument);

/* handoff.c */
enum handoff_start handoff_connect(const char *proxy_socket_path);
/* The socket a relay connects to: relay.sock when the courier is connected, else proxy.sock. */
const struct sockaddr_un *handoff_proxy_address(void);
bool handoff_register(struct handoff_slot *slot, uint64_t id);
bool handoff_take(struct handoff_slot *slot, struct handoff_grant *grant);
void handoff_close(struct handoff_slot *slot);
void handoff_report(enum handoff_report_kind kind, uint64_t id);

/* courier.c: `paperclip-sandbox-bridge --courier`; returns the exit status. */
int courier_main(void);

/* The variable (set by bwrap's --setenv, removed before the program starts) that tells the
   bridge a courier serves its run: unable to reach it, the bridge fails closed. Its value is
   the run's random token, which the bridge prints with the failure (at most this long). */
#define COURIER_ENV "PAPERCLIP_SANDBOX_COURIER"
#define COURIER_TOKEN_MAX 64
/* The code the bridge prints when it fails closed; the spawn helper throws it (registry entry). */
#define COURIER_UNREACHABLE_CODE "ERR_SANDBOX_COURIER_UNREACHABLE"

/* The variable (bwrap's --setenv) carrying the program's seccomp filter, hex-encoded. */
#define SECCOMP_ENV "PAPERCLIP_SANDBOX_SECCOMP"

/* own-filter.c: take the filter from the environment (false: malformed, fail closed), and
   load it, also over a filter that already holds the process (false: the kernel refused it). */
bool take_own_filter(void);
bool apply_own_filter(void);

/* exec-program.c */
void close_inherited_fds(void);
int cgroup_launch_main(int argc, char **argv);
int cgroup_spare_main(int argc, char **argv);

/* courier-peer.c: whether the process at the other end of `connection` runs inside the
   sandbox that bwrap started with `run_dir` among its arguments. */
bool courier_peer_is_own_bridge(int connection, const char *run_dir);

/* fd-passing.c: recvmsg into `buffer`, keeping up to *fd_count descriptors (the count
   received on return, the rest closed); sendmsg of `buffer` with one descriptor (the bytes sent, or -1 with errno). */
ssize_t receive_with_fds(int socket_fd, void *buffer, size_t length, int *fds, size_t *fd_count);
ssize_t send_with_fd(int socket_fd, const void *buffer, size_t length, int fd);

void put_u64(unsigned char *to, uint64_t value);
uint64_t get_u64(const unsigned char *from);

#endif
