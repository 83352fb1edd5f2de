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
 *
 * The shell's own messages go to /dev/null: it reports a child killed by a signal on its
 * stderr ("Terminated", "Killed", "Real-time signal 6"), which is the program's, so every
 * timeout kill added text the program never wrote. The program gets the real stderr back,
 * kept on descriptor 3, which it does not inherit. That happens in a subshell that `exec`s
 * the program: dash applies a simple command's redirections in the parent, before it forks,
 * and keeps them while it reports the child's death, so `"$@" 2>&3` would print there again.
 * A start failure ("exec: /x: not found") is the subshell's, after the redirection: it still
 * reaches the program's stderr. The shell's own failures go silent with its messages: one that
 * cannot fork (a pids limit reached) ends with status 2 and no word, as a program's own exit 2
 * would. `program` must be a path (`execvpPath`): a bare name would
 * run the shell's builtin of that name, if any, instead of the binary.
 */
export function statusKeepingShellArgs(program: string, args: readonly string[]): string[] {
  const trapped = FORWARDED_SIGNALS.map((signal) => signal.slice(3)).join(" ");
  const script = `trap : ${trapped}\nexec 3>&2 2>/dev/null\n( exec "$@" 2>&3 3>&- )`;
  return ["-c", script, "paperclip-sandbox-bridge", program, ...args];
}
