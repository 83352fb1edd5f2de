import type { SandboxError } from "@paperclipai/errors";
import type { BwrapStatus } from "./bwrap-status.js";
import { bindChangedFailure, courierFailure, setupFailure } from "./spawn-failure.js";

export interface RunEnd {
  /** bwrap's path when it reported its status (the spawn helper's sandboxed runs), else `null`. */
  bwrap: string | null;
  status: BwrapStatus | null;
  timedOut: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The run's courier token (`courier-token.ts`): only a line carrying it is the bridge's. */
  courierToken: string | null;
}

/** What a program that ran left: its status and the tail of its output. */
export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

export type RunOutcome = { error: SandboxError } | { result: RunResult };

/**
 * What a run that closed amounts to (pure). bwrap reports the program's exit only when
 * the program ran: a failure without that report, and without a timeout or a signal,
 * is a sandbox that could not be set up (`ERR_SANDBOX_SETUP_FAILED`). A bridge that
 * could not reach its courier did not start the program (`ERR_SANDBOX_COURIER_UNREACHABLE`),
 * said with the run's courier token, which the program never sees; an exec shim that found
 * a bind changed did not start it either (`ERR_SANDBOX_BIND_CHANGED`).
 * Anything else is the program's own result.
 */
export function runOutcome(end: RunEnd): RunOutcome {
  const { bwrap, status, timedOut, code, signal, stdout, stderr, courierToken } = end;
  if (
    bwrap !== null &&
    status !== null &&
    status.exitCode === null &&
    !timedOut &&
    signal === null &&
    code !== 0
  ) {
    return { error: setupFailure(bwrap, code, stderr) };
  }
  const courier = courierFailure(status?.exitCode ?? code, stderr, courierToken);
  if (courier) return { error: courier };
  const changed = bindChangedFailure(status?.exitCode ?? code, stderr);
  if (changed) return { error: changed };
  return { result: { exitCode: code, signal, timedOut, stdout, stderr } };
}
