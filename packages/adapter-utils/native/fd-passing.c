/*
 * Descriptors over Unix sockets (SCM_RIGHTS), for both ends of the tunnel handoff:
 * the courier receives them from Node's IPC channel and sends them to the bridge,
 * the bridge receives them from the courier.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bridge.h"

#define MAX_RECEIVED_FDS 8

ssize_t receive_with_fds(int socket_fd, void *buffer, size_t length, int *fds, size_t *fd_count) {
    char control[CMSG_SPACE(sizeof(int) * MAX_RECEIVED_FDS)] = {0};
    struct iovec data = {buffer, length};
    struct msghdr message = {.msg_iov = &data, .msg_iovlen = 1, .msg_control = control,
                             .msg_controllen = sizeof control};
    ssize_t n;
    do n = recvmsg(socket_fd, &message, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    size_t received = 0;
    /* A failed recvmsg leaves the control buffer as it was: nothing in it is ours. */
    if (n < 0) {
        *fd_count = 0;
        return n;
    }
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(header) + i * sizeof fd, sizeof fd);
            /* More than the caller can hold is not the caller's to keep. */
            if (received < *fd_count) fds[received++] = fd;
            else close(fd);
        }
    }
    *fd_count = received;
    return n;
}

ssize_t send_with_fd(int socket_fd, const void *buffer, size_t length, int fd) {
    char control[CMSG_SPACE(sizeof(int))] = {0};
    struct iovec data = {(void *)buffer, length};
    struct msghdr message = {.msg_iov = &data, .msg_iovlen = 1, .msg_control = control,
                             .msg_controllen = sizeof control};
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof fd);
    ssize_t n;
    do n = sendmsg(socket_fd, &message, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n;
}
