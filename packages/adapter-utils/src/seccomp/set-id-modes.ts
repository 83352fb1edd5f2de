import type { BpfStep } from "./bpf-program.js";
import type { SyscallName } from "./syscall-numbers.js";

/**
 * No file the program makes carries set-user-ID or set-group-ID. A sandboxed program
 * owns what it writes (uid 0 for a root runner, without any capability) and may give
 * its own files any mode; a setuid-root shell left in the workspace, or anywhere the
 * network-only scope writes, runs as root for every local user on the host, where the
 * filesystem is not mounted `nosuid` as it is inside the sandbox. So every call that
 * sets a mode is refused (EPERM) when the mode has either bit; the kernel keeps them
 * through `chmod`, through `open`/`creat` with `O_CREAT` or `O_TMPFILE`, and through
 * `mknod` of a regular file.
 */
export const SET_ID_BITS = 0o6000;

/** `O_CREAT | __O_TMPFILE` (the same on x86_64 and aarch64): only then does `open` use its mode. */
export const MODE_USING_OPEN_FLAGS = 0o100 | 0o20000000;

/** Calls whose mode argument is checked, with that argument's index. */
export const MODE_ARGUMENT = {
  chmod: 1,
  fchmod: 1,
  creat: 1,
  mknod: 1,
  fchmodat: 2,
  fchmodat2: 2,
  mknodat: 2,
} as const satisfies Partial<Record<SyscallName, number>>;

/** `open` calls: the flags' index; the mode follows them. (`openat2` passes both in memory: ENOSYS.) */
export const OPEN_FLAGS_ARGUMENT = { open: 1, openat: 2 } as const satisfies Partial<
  Record<SyscallName, number>
>;

/** The label the filter's search sends a call to, by where its mode (and flags) are. */
export function setIdLabel(name: SyscallName): string | null {
  if (name in MODE_ARGUMENT) return `mode.${MODE_ARGUMENT[name as keyof typeof MODE_ARGUMENT]}`;
  if (name in OPEN_FLAGS_ARGUMENT)
    return `open.${OPEN_FLAGS_ARGUMENT[name as keyof typeof OPEN_FLAGS_ARGUMENT]}`;
  return null;
}

/**
 * The checks behind those labels, ending in `allow` or `deny`. The low word of each
 * argument: the kernel takes flags and mode as 32-bit values.
 */
export function setIdModeSteps(arg: (index: number) => number): BpfStep[] {
  const steps: BpfStep[] = [];
  for (const index of new Set(Object.values(MODE_ARGUMENT))) {
    steps.push(
      { op: "label", name: `mode.${index}` },
      { op: "load", offset: arg(index) },
      { op: "jset", value: SET_ID_BITS, whenTrue: "deny", whenFalse: "allow" },
    );
  }
  for (const index of new Set(Object.values(OPEN_FLAGS_ARGUMENT))) {
    steps.push(
      { op: "label", name: `open.${index}` },
      { op: "load", offset: arg(index) },
      { op: "jset", value: MODE_USING_OPEN_FLAGS, whenTrue: null, whenFalse: "allow" },
      { op: "load", offset: arg(index + 1) },
      { op: "jset", value: SET_ID_BITS, whenTrue: "deny", whenFalse: "allow" },
    );
  }
  return steps;
}
