/*
 * paperclip-sandbox-exec PROGRAM [ARGS...]: how a program starts in a scope without a
 * bridge (/proc/1/paperclip-sandbox-exec inside the sandbox: its directory masks bwrap's pid 1,
 * src/spawn-target/program-launch.ts).
 *
 *   0. checks that every bind shows what the host checked (bind-check.h), else exits 122
 *      without running the program, the destination named on stderr; removes the list;
 *   1. takes the program's seccomp filter, hex-encoded, from PAPERCLIP_SANDBOX_SECCOMP
 *      (bwrap's --setenv, for callers that spawn bwrap without --seccomp) and removes
 *      the variable from the environment the program gets; a malformed value fails closed;
 *   2. loads that filter with no_new_privs, also over a filter that already holds the process:
 *      a caller's own (a container runtime's profile) is inherited through bwrap, and the
 *      spawn helper, whose bwrap --seccomp loads the same filter, leaves the variable out;
 *   3. closes every descriptor above stdio (close-inherited-fds.h): libuv keeps a host's
 *      inherited descriptors (no close-on-exec), bwrap passes them on, and a connected host
 *      socket reached that way could be re-connected anywhere the host can go;
 *   4. becomes the program, found as execvp finds it (the program name may be bare:
 *      buildLocalProcessSandboxSpawnTarget takes `executable` as the caller gives it).
 *
 * Failures say why on stderr and end with the shell's statuses: 125 when the shim itself
 * cannot go on (no program, filter malformed or refused), 127 when the program does not
 * exist, 126 when it cannot run. Freestanding: no libc, raw system calls (raw-syscall.h),
 * so its start costs an execve and nothing more. Why that is safe: docs/adapter-utils/hardening.md.
 */
#include <linux/errno.h>
#include <linux/filter.h>
#include <linux/prctl.h>
#include <linux/seccomp.h>
#include <linux/uio.h>
#include <stdbool.h>
#include <stddef.h>

#include "bind-check.h"
#include "close-inherited-fds.h"
#include "raw-syscall.h"

#define SECCOMP_ENV "PAPERCLIP_SANDBOX_SECCOMP"
#define MAX_FILTER_INSTRUCTIONS 4096
#define SHIM_FAILURE 125
/* A bind that does not show what the host checked (bind-check.h): src/spawn/spawn-failure.ts. */
#define BIND_CHANGED 122
#define NOT_FOUND 127
#define CANNOT_RUN 126
/* glibc's execvp: the search path when PATH is unset, and the longest name and directory it tries. */
#define DEFAULT_SEARCH_PATH "/bin:/usr/bin"
#define NAME_LIMIT 255
#define DIRECTORY_LIMIT 4095

void exec_shim_main(long *stack) __attribute__((noreturn, used, visibility("hidden")));

static struct sock_filter filter[MAX_FILTER_INSTRUCTIONS];
static char shell[] = "/bin/sh";

/* Position-independent without a loader: a table of arrays, not of pointers (nothing to relocate). */
static const struct {
    int code;
    char text[40];
} ERROR_TEXTS[] = {
    {EPERM, "Operation not permitted"},
    {ENOENT, "No such file or directory"},
    {EIO, "Input/output error"},
    {E2BIG, "Argument list too long"},
    {ENOEXEC, "Exec format error"},
    {EBADF, "Bad file descriptor"},
    {ENOMEM, "Cannot allocate memory"},
    {EACCES, "Permission denied"},
    {EFAULT, "Bad address"},
    {ENODEV, "No such device"},
    {ENOTDIR, "Not a directory"},
    {EISDIR, "Is a directory"},
    {EINVAL, "Invalid argument"},
    {ENFILE, "Too many open files in system"},
    {EMFILE, "Too many open files"},
    {ETXTBSY, "Text file busy"},
    {ENAMETOOLONG, "File name too long"},
    {ENOSYS, "Function not implemented"},
    {ELOOP, "Too many levels of symbolic links"},
    {ELIBBAD, "Accessing a corrupted shared library"},
    {ETIMEDOUT, "Connection timed out"},
    {ESTALE, "Stale file handle"},
};

static size_t length_of(const char *text) {
    size_t length = 0;
    while (text[length]) length++;
    return length;
}

/* Writes `what`, then `name` (when there is one), then ": " and strerror's text of `error`. */
static void complain(const char *what, const char *name, int error) {
    char unknown[32] = "Unknown error "; /* the rest is zeros: the digits stay terminated */
    const char *text = unknown;
    for (size_t i = 0; i < sizeof ERROR_TEXTS / sizeof ERROR_TEXTS[0]; i++)
        if (ERROR_TEXTS[i].code == error) text = ERROR_TEXTS[i].text;
    if (text == unknown) {
        char digits[12];
        size_t count = 0, at = length_of(unknown);
        for (unsigned value = (unsigned)error; count == 0 || value > 0; value /= 10) digits[count++] = (char)('0' + value % 10);
        while (count > 0) unknown[at++] = digits[--count];
    }
    struct iovec parts[] = {
        {(void *)what, length_of(what)},
        {(void *)(name ? name : ""), name ? length_of(name) : 0},
        {(void *)": ", 2},
        {(void *)text, length_of(text)},
        {(void *)"\n", 1},
    };
    raw_syscall(__NR_writev, 2, (long)parts, sizeof parts / sizeof parts[0], 0, 0);
}

/* Whether `entry` is `NAME=...`; then *value points after the `=`. */
static bool names(const char *entry, const char *name, const char **value) {
    while (*name && *entry == *name) entry++, name++;
    if (*name || *entry != '=') return false;
    *value = entry + 1;
    return true;
}

/* getenv: the value of the first NAME entry, or NULL. */
static const char *env_value(char **envp, const char *name) {
    const char *value = NULL;
    for (; *envp; envp++)
        if (names(*envp, name, &value)) return value;
    return NULL;
}

/* unsetenv: every NAME entry leaves the array (in place, on the stack the kernel gave). */
static void env_remove(char **envp, const char *name) {
    char **kept = envp;
    const char *value;
    for (; *envp; envp++)
        if (!names(*envp, name, &value)) *kept++ = *envp;
    *kept = NULL;
}

static int hex_value(char digit) {
    if (digit >= '0' && digit <= '9') return digit - '0';
    if (digit >= 'a' && digit <= 'f') return digit - 'a' + 10;
    return -1;
}

/* The filter's instruction count (0: the environment carries none), or -EINVAL when malformed. */
static long take_filter(char **envp) {
    const char *hex = env_value(envp, SECCOMP_ENV);
    long count = 0;
    if (hex) {
        size_t digits = length_of(hex);
        bool valid = digits > 0 && digits % 16 == 0 && digits / 16 <= MAX_FILTER_INSTRUCTIONS;
        unsigned char *bytes = (unsigned char *)filter;
        for (size_t i = 0; valid && i < digits; i += 2) {
            int high = hex_value(hex[i]), low = hex_value(hex[i + 1]);
            valid = high >= 0 && low >= 0;
            bytes[i / 2] = (unsigned char)(high * 16 + low);
        }
        count = valid ? (long)(digits / 16) : -EINVAL;
    }
    env_remove(envp, SECCOMP_ENV);
    return count;
}

/* Loads the filter taken (0, or -errno when the kernel refuses it). */
static long load_filter(long count) {
    if (count == 0) return 0;
    long refused = raw_syscall(__NR_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (refused) return refused;
    struct sock_fprog program = {.len = (unsigned short)count, .filter = filter};
    return raw_syscall(__NR_prctl, PR_SET_SECCOMP, SECCOMP_MODE_FILTER, (long)&program, 0, 0);
}

/*
 * execve, and for a file the kernel does not recognise (ENOEXEC) the shell on it, as
 * execvp does; -errno of the last attempt. The shell's argv is "/bin/sh" FILE ARGS...:
 * argv[-1] is the shim's own argv[0] slot on the kernel's stack, free to borrow.
 */
static long run_file(const char *file, char **argv, char **envp) {
    long failure = raw_syscall(__NR_execve, (long)file, (long)argv, (long)envp, 0, 0);
    if (failure != -ENOEXEC) return failure;
    char *self = argv[-1], *program = argv[0];
    argv[-1] = shell;
    argv[0] = (char *)file;
    failure = raw_syscall(__NR_execve, (long)shell, (long)(argv - 1), (long)envp, 0, 0);
    argv[-1] = self;
    argv[0] = program;
    return failure;
}

/* execvp: a name with a slash as it is; else every PATH entry in turn (empty: the working
   directory), on past the ones that do not have it, EACCES reported if any entry gave it. */
static long start_program(char **argv, char **envp) {
    const char *file = argv[0];
    if (!*file) return -ENOENT;
    for (const char *c = file; *c; c++)
        if (*c == '/') return run_file(file, argv, envp);
    size_t file_length = length_of(file);
    if (file_length > NAME_LIMIT) return -ENAMETOOLONG;
    const char *search = env_value(envp, "PATH");
    if (!search) search = DEFAULT_SEARCH_PATH;
    char candidate[DIRECTORY_LIMIT + NAME_LIMIT + 2];
    bool denied = false;
    long last = -ENOENT;
    for (const char *entry = search;;) {
        const char *end = entry;
        while (*end && *end != ':') end++;
        size_t directory_length = (size_t)(end - entry);
        if (directory_length <= DIRECTORY_LIMIT) {
            size_t at = 0;
            while (at < directory_length) candidate[at] = entry[at], at++;
            if (directory_length > 0) candidate[at++] = '/';
            for (size_t i = 0; i <= file_length; i++) candidate[at + i] = file[i];
            long failure = run_file(candidate, argv, envp);
            switch (-failure) {
            case EACCES:
                denied = true;
                break;
            case ENOENT:
            case ESTALE:
            case ENOTDIR:
            case ENODEV:
            case ETIMEDOUT:
                last = failure;
                break;
            default:
                return failure;
            }
        }
        if (!*end) break;
        entry = end + 1;
    }
    return denied ? -EACCES : last;
}

static int run(long argc, char **argv, char **envp) {
    if (argc < 2) {
        static const char usage[] = "usage: paperclip-sandbox-exec <program> [args...]\n";
        raw_syscall(__NR_write, 2, (long)usage, sizeof usage - 1, 0, 0);
        return SHIM_FAILURE;
    }
    char **program = argv + 1;
    char bind_path[BIND_PATH_LIMIT];
    const char *changed = bind_mismatch(env_value(envp, BINDS_ENV), bind_path);
    env_remove(envp, BINDS_ENV);
    if (changed) {
        static const char mark[] = "paperclip-sandbox: ERR_SANDBOX_BIND_CHANGED: ";
        struct iovec parts[] = {
            {(void *)mark, sizeof mark - 1},
            {(void *)changed, length_of(changed)},
            {(void *)"\n", 1},
        };
        raw_syscall(__NR_writev, 2, (long)parts, 3, 0, 0);
        return BIND_CHANGED;
    }
    long taken = take_filter(envp);
    long failure = taken < 0 ? taken : load_filter(taken);
    if (failure) {
        complain("paperclip-sandbox: cannot load the seccomp filter", NULL, (int)-failure);
        return SHIM_FAILURE;
    }
    close_inherited_fds();
    failure = start_program(program, envp);
    complain("paperclip-sandbox: cannot start ", program[0], (int)-failure);
    return failure == -ENOENT ? NOT_FOUND : CANNOT_RUN;
}

/* From _start: `stack` is where the kernel put argc, argv and envp. */
// cppcheck-suppress unusedFunction ; called from _start (raw-syscall.h)
void exec_shim_main(long *stack) {
    long argc = stack[0];
    char **argv = (char **)(stack + 1);
    raw_syscall(__NR_exit_group, run(argc, argv, argv + argc + 1), 0, 0, 0, 0);
    __builtin_unreachable();
}
