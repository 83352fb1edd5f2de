/**
 * bwrap's pid 1 (its init: it reaps orphans and reports the program's exit to the bwrap
 * outside) is dumpable and has the program's uid and no capabilities, so the kernel lets
 * the program open `/proc/1/mem` for writing. That is an `open`, which the seccomp filter
 * cannot tell from any other: code written there runs as pid 1, which can clear its
 * parent-death signal and keep the sandbox alive after bwrap exits (and carries no filter
 * at all when the caller spawned the argv itself). Every way to pid 1's files (`mem`,
 * `fd`, `environ`, `task/1/…`) goes through `/proc/1`, so a read-only mount over that
 * directory, after `--proc`, closes them all (an empty directory, or the exec shim's own,
 * which holds only the shim); the program cannot unmount it.
 */
export const INIT_PROC_DIR = "/proc/1";
