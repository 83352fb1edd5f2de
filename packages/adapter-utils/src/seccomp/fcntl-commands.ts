import type { BpfStep } from "./bpf-program.js";
import type { FilterArch } from "./syscall-numbers.js";

/**
 * `fcntl` commands refused on every descriptor (the same number on x86_64 and aarch64).
 * F_SETLEASE needs only a read-only descriptor of a file the caller owns, and a sandboxed
 * program owns every file of its runner's uid (a root runner's `/etc`, a read-only
 * workspace or extra path): while it holds a read lease, every open of that file for
 * writing on the host, or a truncate, waits for it up to `/proc/sys/fs/lease-break-time`
 * (45 s), each time it takes the lease again, and it learns of each such open. Agents
 * do not use leases (file servers such as Samba do); `flock` and record locks stay.
 */
export const DENIED_FCNTLS = { F_SETLEASE: 1024 } as const;

/** `F_SETFL`, whose flags argument is checked for `O_DIRECT`. */
export const F_SETFL = 4;

/**
 * `O_DIRECT` (its value differs by architecture). Set with `F_SETFL` on a pipe, it makes the
 * pipe a packet pipe for every writer that shares the open file description, and a reader
 * loses what a read of one packet does not take. The CLI hands the program the caller's
 * stdout pipe as it is, shared with the caller's later writers (`{ paperclip-sandbox -- tool;
 * other; } | reader`), and nothing sets the flag back: the caller's next command's output was
 * cut after the run. Refused with EINVAL, the kernel's answer for a file without direct I/O,
 * which callers that ask for it on a file (MySQL's `O_DIRECT` flush method) take as "use the
 * page cache"; `open` with `O_DIRECT` and `pipe2(O_DIRECT)` stay allowed.
 */
export const O_DIRECT: Record<FilterArch, number> = { x64: 0o40000, arm64: 0o200000 };

/**
 * The check behind the filter's `fcntl` label, ending in `allow`, `deny` or `nodirect`. The
 * command's and the flags' low words: the kernel takes both as unsigned ints, so high bits
 * hide nothing.
 */
export function fcntlCommandSteps(arch: FilterArch, arg: (index: number) => number): BpfStep[] {
  return [
    { op: "label", name: "fcntl" },
    { op: "load", offset: arg(1) },
    ...Object.values(DENIED_FCNTLS).map(
      (command): BpfStep => ({ op: "jeq", value: command, whenTrue: "deny", whenFalse: null }),
    ),
    { op: "jeq", value: F_SETFL, whenTrue: "fcntl.setfl", whenFalse: "allow" },
    { op: "label", name: "fcntl.setfl" },
    { op: "load", offset: arg(2) },
    { op: "jset", value: O_DIRECT[arch], whenTrue: "nodirect", whenFalse: "allow" },
  ];
}
