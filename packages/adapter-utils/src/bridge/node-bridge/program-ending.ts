import type { ExecvpFailure } from "./execvp-path.js";

/** Exit status of the bridge itself when it fails before the program starts (no listener, or no arguments). */
export const BRIDGE_SETUP_FAILURE_STATUS = 125;

/** Every catchable signal the bridge passes on to the program's process group. */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = [
  "SIGHUP",
  "SIGINT",
  "SIGQUIT",
  "SIGTERM",
  "SIGUSR1",
  "SIGUSR2",
  "SIGALRM",
  "SIGWINCH",
  "SIGCONT",
  "SIGTSTP",
  "SIGTTIN",
  "SIGTTOU",
  "SIGVTALRM",
  "SIGPROF",
  "SIGXCPU",
  "SIGXFSZ",
];

const START_FAILURE_TEXT: Readonly<Record<ExecvpFailure, string>> = {
  ENOENT: "No such file or directory",
  EACCES: "Permission denied",
  ELOOP: "Too many levels of symbolic links",
  ENAMETOOLONG: "File name too long",
};

/** execvp's failure as strerror words it, which the exec shim and the native bridge print. */
export function startFailureText(code: ExecvpFailure): string {
  return START_FAILURE_TEXT[code];
}

/** The shell's statuses for a program that cannot start: 127 when it does not exist, else 126. */
export function startFailureStatus(code: string | undefined): 126 | 127 {
  return code === "ENOENT" ? 127 : 126;
}

/**
 * How the bridge ends once the program has: with the same exit code, or by re-raising
 * the same signal. A signal whose default action does not end a process (or that Node
 * ignores) leaves the bridge running, so `fallbackStatus` (the shell's 128+N) ends it then.
 */
export type BridgeEnding =
  | { readonly kind: "exit"; readonly status: number }
  | { readonly kind: "signal"; readonly signal: NodeJS.Signals; readonly fallbackStatus: number };

export function bridgeEnding(
  code: number | null,
  signal: NodeJS.Signals | null,
  signalNumbers: Readonly<Partial<Record<NodeJS.Signals, number>>>,
): BridgeEnding {
  if (signal) return { kind: "signal", signal, fallbackStatus: 128 + (signalNumbers[signal] ?? 0) };
  return { kind: "exit", status: code ?? 1 };
}
