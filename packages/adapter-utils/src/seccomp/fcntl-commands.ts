import type { BpfStep } from "./bpf-program.js";

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

/**
 * The check behind the filter's `fcntl` label, ending in `allow` or `deny`. The command's
 * low word: the kernel takes it as an unsigned int, so high bits hide nothing.
 */
export function fcntlCommandSteps(commandOffset: number): BpfStep[] {
  const commands = Object.values(DENIED_FCNTLS);
  return [
    { op: "label", name: "fcntl" },
    { op: "load", offset: commandOffset },
    ...commands.map(
      (command, index): BpfStep => ({
        op: "jeq",
        value: command,
        whenTrue: "deny",
        whenFalse: index === commands.length - 1 ? "allow" : null,
      }),
    ),
  ];
}
