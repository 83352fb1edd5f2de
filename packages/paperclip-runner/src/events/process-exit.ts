import { constants } from "node:os";

/** How a harness process ended, as upstream reports it in `harness.exited` and the terminal's reconciliation. */
export interface ProcessExitFact {
  readonly exitCode: number | null;
  readonly success: boolean;
  /** The signal's number (upstream reports numbers, not names), or null. */
  readonly signal: number | null;
}

/** No process ran (it could not be spawned, or the run ended before one was needed). */
export const NO_PROCESS_EXIT: ProcessExitFact = { exitCode: null, success: false, signal: null };

/** Pure: Node's `(code, signal name)` as upstream's fact. */
export function processExitFact(exitCode: number | null, signal: string | null): ProcessExitFact {
  const signalNumber =
    signal === null ? null : ((constants.signals as Record<string, number | undefined>)[signal] ?? null);
  return { exitCode, success: signal === null && exitCode === 0, signal: signalNumber };
}
