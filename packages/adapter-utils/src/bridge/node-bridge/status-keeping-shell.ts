import { FORWARDED_SIGNALS } from "./program-ending.js";

/** The shell the Node bridge runs the program under; every sandbox scope shows `/bin`. */
export const STATUS_KEEPING_SHELL = "/bin/sh";

/**
 * The Node bridge runs the program as the child of a shell, not its own: Node's
 * `child_process` reports a death by a signal it cannot name (32..64, the realtime ones) as
 * exit code 0 with no signal, which the bridge would end with, so a crashed program read as
 * a success. The shell sees the real wait status and exits 128+N for a death by signal N, the
 * status bwrap reports for a death behind the native bridge. It traps (with a no-op, which
 * its child does not inherit) every signal the bridge forwards to the program's process
 * group, which it is in, so it outlives the program and reports its status; a trapped
 * signal's action runs only after the program has ended, and leaves `$?` as it was.
 */
export function statusKeepingShellArgs(executable: string, args: readonly string[]): string[] {
  const trapped = FORWARDED_SIGNALS.map((signal) => signal.slice(3)).join(" ");
  return ["-c", `trap : ${trapped}\n"$@"`, "paperclip-sandbox-bridge", executable, ...args];
}
