/*
 * The floor of any relaying design, for the sandbox suite: a plain relay between two
 * loopback TCP connections that moves bytes with splice(2), two threads per
 * connection, no sandbox, no proxy, no policy. It prints the port it listens on.
 *
 *   splice-relay <target-port>
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define CHUNK (256 * 1024)

struct connection {
    int sockets[2];
    atomic_int legs;
};

struct leg {
    struct connection *connection;
    int from;
    int to;
};

static void *relay(void *argument) {
    struct leg leg = *(struct leg *)argument;
    free(argument);
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) return NULL;
    fcntl(pipe_fds[1], F_SETPIPE_SZ, CHUNK);
    for (;;) {
        ssize_t n = splice(leg.from, NULL, pipe_fds[1], NULL, CHUNK, SPLICE_F_MOVE);
        if (n <= 0) break;
        while (n > 0) {
            ssize_t written = splice(pipe_fds[0], NULL, leg.to, NULL, (size_t)n, SPLICE_F_MOVE);
            if (written <= 0) goto done;
            n -= written;
        }
    }
done:
    shutdown(leg.to, SHUT_WR);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    /* The second leg to finish closes the connection. */
    if (atomic_fetch_sub(&leg.connection->legs, 1) == 1) {
        close(leg.connection->sockets[0]);
        close(leg.connection->sockets[1]);
        free(leg.connection);
    }
    return NULL;
}

static void start_leg(struct connection *connection, int from, int to) {
    struct leg *leg = malloc(sizeof *leg);
    if (!leg) abort();
    *leg = (struct leg){connection, from, to};
    pthread_t thread;
    if (pthread_create(&thread, NULL, relay, leg) != 0) abort();
    pthread_detach(thread);
}

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 64) != 0)
        return 1;
    socklen_t length = sizeof address;
    getsockname(listener, (struct sockaddr *)&address, &length);
    printf("%d\n", ntohs(address.sin_port));
    fflush(stdout);
    struct sockaddr_in target = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
                                 .sin_port = htons((uint16_t)atoi(argv[1]))};
    const int on = 1;
    for (;;) {
        int client = accept(listener, NULL, NULL);
        if (client < 0) continue;
        int upstream = socket(AF_INET, SOCK_STREAM, 0);
        if (upstream < 0 || connect(upstream, (struct sockaddr *)&target, sizeof target) != 0) {
            close(client);
            if (upstream >= 0) close(upstream);
            continue;
        }
        setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        setsockopt(upstream, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        struct connection *connection = malloc(sizeof *connection);
        if (!connection) abort();
        connection->sockets[0] = client;
        connection->sockets[1] = upstream;
        atomic_init(&connection->legs, 2);
        start_leg(connection, client, upstream);
        start_leg(connection, upstream, client);
    }
}
