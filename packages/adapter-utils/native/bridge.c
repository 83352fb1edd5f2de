/*
 * paperclip-sandbox-bridge: the in-sandbox bridge of the allowlist scope, native.
 *
 *   paperclip-sandbox-bridge <listen-ip:port> <proxy.sock> <program> [args...]   (port 0: any free port)
 *   paperclip-sandbox-bridge --version
 *
 * Listens on <listen-ip:port> inside the sandbox's network namespace and relays
 * every connection byte for byte to the host proxy's Unix socket. Only once it
 * listens does it start the program, in a session (and process group) of its own,
 * so a signal reaches the program once: from the bridge, which forwards every
 * catchable one. It ends with the program's exact status: the same exit code, or
 * the same signal re-raised. The Node bridge (src/bridge/bridge-source.ts) keeps
 * the same contract; the package falls back to it when this binary cannot run.
 *
 * Each connection is relayed by a thread of its own (relay.c). When the host proxy
 * runs a courier (courier.c), tunnels it has checked and connected are handed to
 * the bridge (handoff.c) and their bytes no longer pass through the host process.
 *
 *   paperclip-sandbox-bridge --courier   (the host's end of the handoff; see courier.c)
 *   paperclip-sandbox-bridge --cgroup <cgroup.procs> -- <command> [args...]   (host side)
 *   paperclip-sandbox-bridge --cgroup-spare <cgroup.procs>   (host side, started ahead of need)
 *
 * The program never inherits a descriptor above stdio (exec-program.c). With
 * PAPERCLIP_SANDBOX_COURIER=<run token> (bwrap's --setenv) a courier serves this run: a bridge
 * that cannot reach it does not start the program (ERR_SANDBOX_COURIER_UNREACHABLE and the
 * token on stderr, exit 125).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bridge.h"

/* Exit status when the bridge cannot listen (the program never started), as the Node bridge's. */
#define LISTEN_FAILURE_STATUS 125
/* Carrier prefix of variables kept from Node's start of a Node bridge (src/bridge/deferred-env.ts). */
#define DEFERRED_ENV_PREFIX "PAPERCLIP_SANDBOX_BRIDGE_DEFERRED_"
#define THREAD_STACK_SIZE (64 * 1024)

extern char **environ;

static const int FORWARDED_SIGNALS[] = {
    SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGWINCH,
    SIGCONT, SIGTSTP, SIGTTIN, SIGTTOU, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
};
#define FORWARDED_COUNT (sizeof(FORWARDED_SIGNALS) / sizeof(FORWARDED_SIGNALS[0]))

struct sockaddr_un proxy_address;
pthread_attr_t thread_attr;

static void pause_briefly(void) {
    struct timespec delay = {0, 10 * 1000 * 1000};
    nanosleep(&delay, NULL);
}

/*
 * The connection threads inherit this policy from the acceptor that creates them. A
 * SCHED_BATCH thread woken by a write (the program's, or the host proxy's) does not preempt
 * the writer: it runs on an idle CPU at once, else once the writer sleeps or its slice ends.
 * With a thread per connection, 200 tunnels opening at once otherwise preempted the host
 * proxy at nearly every write it made to them, a context switch pair each, and the proxy,
 * which serves every tunnel of the run on one thread, did a fifth more work per batch. A hint
 * only: where it is refused, the relay works the same.
 */
static void yield_to_writers_on_wakeup(void) {
    const struct sched_param none = {0};
    (void)sched_setscheduler(0, SCHED_BATCH, &none);
}

static void *accept_loop(void *argument) {
    int listener = (int)(intptr_t)argument;
    const int on = 1;
    yield_to_writers_on_wakeup();
    for (;;) {
        int client = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (client < 0) {
            /* A connection that went away before it was accepted is no reason to wait; anything
               else (out of descriptors or memory) is: let running connections finish first. */
            if (errno != EINTR && errno != ECONNABORTED && errno != EAGAIN) pause_briefly();
            continue;
        }
        setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        pthread_t thread;
        if (pthread_create(&thread, &thread_attr, serve_connection, (void *)(intptr_t)client) != 0) {
            close(client);
            pause_briefly();
        }
    }
    return NULL;
}

static int parse_listen_address(const char *text, struct sockaddr_in *address) {
    const char *colon = strrchr(text, ':');
    if (!colon || colon == text) return -1;
    char host[INET_ADDRSTRLEN];
    size_t host_length = (size_t)(colon - text);
    if (host_length >= sizeof host) return -1;
    memcpy(host, text, host_length);
    host[host_length] = '\0';
    char *end = NULL;
    long port = strtol(colon + 1, &end, 10);
    if (*(colon + 1) == '\0' || *end != '\0' || port < 0 || port > 65535) return -1;
    memset(address, 0, sizeof *address);
    address->sin_family = AF_INET;
    address->sin_port = htons((uint16_t)port);
    return inet_pton(AF_INET, host, &address->sin_addr) == 1 ? 0 : -1;
}

static int listen_on(const char *text) {
    struct sockaddr_in address;
    if (parse_listen_address(text, &address) != 0) {
        errno = EINVAL;
        return -1;
    }
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0) return -1;
    const int on = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 4096) != 0) {
        int saved = errno;
        close(listener);
        errno = saved;
        return -1;
    }
    return listener;
}

/* Variables a Node bridge would have kept from its own start go back under their own name. */
static void restore_deferred_env(void) {
    size_t prefix_length = strlen(DEFERRED_ENV_PREFIX);
    for (int again = 1; again;) {
        again = 0;
        for (char **entry = environ; *entry; entry++) {
            if (strncmp(*entry, DEFERRED_ENV_PREFIX, prefix_length) != 0) continue;
            char *carrier = strdup(*entry);
            if (!carrier) return;
            char *equals = strchr(carrier, '=');
            if (equals) {
                *equals = '\0';
                setenv(carrier + prefix_length, equals + 1, 1);
                unsetenv(carrier);
            }
            free(carrier);
            again = 1; /* environ changed under us: scan it afresh */
            break;
        }
    }
}

/* In the forked child: a clean signal state (as Node's spawn gives), a session of its own, then the program. */
static void exec_program(char **argv) {
    for (int signal_number = 1; signal_number < NSIG; signal_number++) {
        if (signal_number != SIGKILL && signal_number != SIGSTOP) signal(signal_number, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    /* Its own session: the bridge's forwarded signals reach its whole group, and no terminal ties it
       to the host's. Any failure here ends the child before the program runs. */
    if (sigprocmask(SIG_SETMASK, &none, NULL) != 0 || setsid() < 0) {
        dprintf(STDERR_FILENO, "paperclip-sandbox bridge: cannot give the program its own session: %s\n", strerror(errno));
        _exit(125);
    }
    if (!apply_own_filter()) {
        dprintf(STDERR_FILENO, "paperclip-sandbox bridge: cannot load the seccomp filter: %s\n", strerror(errno));
        _exit(125);
    }
    close_inherited_fds();
    execvp(argv[0], argv);
    int saved = errno;
    dprintf(STDERR_FILENO, "paperclip-sandbox bridge: cannot start %s: %s\n", argv[0], strerror(saved));
    _exit(saved == ENOENT ? 127 : 126);
}

/* Ends the bridge the way the program ended. */
static void exit_like(int status) {
    if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
    int signal_number = WTERMSIG(status);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(signal_number, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signal_number);
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    raise(signal_number);
    /* A signal whose default action does not end the process ends here. */
    _exit(128 + signal_number);
}

/* One byte through a Unix socket pair into a pipe, the way relay.c moves the proxy's bytes. */
static bool unix_splice_works(void) {
    int pair[2];
    int pipe_fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return false;
    bool works = false;
    if (pipe2(pipe_fds, O_CLOEXEC) == 0) {
        works = write(pair[0], "x", 1) == 1 && splice(pair[1], NULL, pipe_fds[1], NULL, 1, SPLICE_F_NONBLOCK) == 1;
        close(pipe_fds[0]);
        close(pipe_fds[1]);
    }
    close(pair[0]);
    close(pair[1]);
    return works;
}

static void raise_descriptor_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        /* The probe's question is "can this bridge run here": the relay needs splice(2) from a
           Unix socket (Linux 4.5+); without it the package takes its Node bridge. */
        if (!unix_splice_works()) {
            dprintf(STDERR_FILENO, "paperclip-sandbox bridge: this kernel cannot splice(2) from a Unix socket\n");
            return 1;
        }
        printf("paperclip-sandbox-bridge " BRIDGE_PROTOCOL_VERSION "\n");
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--courier") == 0) return courier_main();
    if (argc >= 2 && strcmp(argv[1], "--cgroup") == 0) return cgroup_launch_main(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "--cgroup-spare") == 0) return cgroup_spare_main(argc, argv);
    if (argc < 4) {
        dprintf(STDERR_FILENO,
                "usage: paperclip-sandbox-bridge <listen-ip:port> <proxy.sock> <program> [args...]\n");
        return LISTEN_FAILURE_STATUS;
    }
    const char *listen_text = argv[1];
    const char *socket_path = argv[2];
    if (strlen(socket_path) >= sizeof proxy_address.sun_path) {
        dprintf(STDERR_FILENO, "paperclip-sandbox bridge: proxy socket path too long: %s\n", socket_path);
        return LISTEN_FAILURE_STATUS;
    }
    proxy_address.sun_family = AF_UNIX;
    strcpy(proxy_address.sun_path, socket_path);

    int listener = listen_on(listen_text);
    if (listener < 0) {
        dprintf(STDERR_FILENO, "paperclip-sandbox bridge: cannot listen on %s: %s\n", listen_text, strerror(errno));
        return LISTEN_FAILURE_STATUS;
    }
    restore_deferred_env();
    /* Not dumpable: the program, same uid, can neither trace the bridge nor open its descriptors. */
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 || prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0) {
        dprintf(STDERR_FILENO, "paperclip-sandbox bridge: cannot make itself undumpable: %s\n", strerror(errno));
        return LISTEN_FAILURE_STATUS;
    }
    pthread_attr_init(&thread_attr);
    pthread_attr_setstacksize(&thread_attr, THREAD_STACK_SIZE);
    pthread_attr_setdetachstate(&thread_attr, PTHREAD_CREATE_DETACHED);

    /* Blocked before the fork, so no forwarded signal or the child's exit is missed; waited for below. */
    signal(SIGCHLD, SIG_DFL);
    signal(SIGPIPE, SIG_IGN);
    sigset_t waited;
    sigemptyset(&waited);
    sigaddset(&waited, SIGCHLD);
    for (size_t i = 0; i < FORWARDED_COUNT; i++) sigaddset(&waited, FORWARDED_SIGNALS[i]);
    if (sigprocmask(SIG_BLOCK, &waited, NULL) != 0) {
        dprintf(STDERR_FILENO, "paperclip-sandbox bridge: cannot block the signals it forwards: %s\n", strerror(errno));
        return LISTEN_FAILURE_STATUS;
    }
    /* Before the program starts: the courier takes one connection only, and it must be ours
       (the sockets it passes belong to the host's network). After the mask: its reader thread
       must not take the signals the bridge waits for. */
    if (!take_own_filter()) {
        dprintf(STDERR_FILENO, "paperclip-sandbox bridge: malformed %s\n", SECCOMP_ENV);
        return LISTEN_FAILURE_STATUS;
    }
    /* The value is the run's token: printed with the failure, so the host can tell this line
       from the same text written by the program, which never sees the token (unset below,
       and the bridge is undumpable, so its environ cannot be read either). */
    const char *courier_flag = getenv(COURIER_ENV);
    char courier_token[COURIER_TOKEN_MAX + 1] = "";
    bool courier_expected = courier_flag && courier_flag[0] != '\0';
    if (courier_expected) snprintf(courier_token, sizeof courier_token, "%s", courier_flag);
    unsetenv(COURIER_ENV);
    if (courier_expected && handoff_connect(socket_path) != HANDOFF_READY) {
        dprintf(STDERR_FILENO,
                "paperclip-sandbox bridge: " COURIER_UNREACHABLE_CODE ": %s: cannot reach the tunnel courier beside %s: %s\n",
                courier_token, socket_path, errno ? strerror(errno) : "not listening");
        return LISTEN_FAILURE_STATUS;
    }

    pid_t child = fork();
    if (child < 0) {
        dprintf(STDERR_FILENO, "paperclip-sandbox bridge: cannot start %s: %s\n", argv[3], strerror(errno));
        return 126;
    }
    if (child == 0) {
        close(listener);
        exec_program(argv + 3);
    }

    raise_descriptor_limit();
    pthread_t acceptor;
    int created = pthread_create(&acceptor, &thread_attr, accept_loop, (void *)(intptr_t)listener);
    if (created != 0) {
        /* No relay means no network for the program: end it rather than let it run without one. */
        dprintf(STDERR_FILENO, "paperclip-sandbox bridge: cannot start the relay: %s\n", strerror(created));
        kill(-child, SIGKILL);
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
        return LISTEN_FAILURE_STATUS;
    }

    for (;;) {
        siginfo_t info;
        int signal_number = sigwaitinfo(&waited, &info);
        if (signal_number < 0) continue;
        if (signal_number == SIGCHLD) {
            int status;
            pid_t ended = waitpid(child, &status, WNOHANG);
            if (ended == child) exit_like(status);
            continue;
        }
        if (kill(-child, signal_number) != 0) kill(child, signal_number);
    }
}
