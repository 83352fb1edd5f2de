import type { LogTailLimits } from "../harness/log-tail.js";
import { DEFAULT_LIMITS, type LocalLimits } from "./local-options.js";

/** How long the runner waits for the harness, and how much of it it keeps. */
export interface LocalTimings {
  /** How long a started harness has to say `ready`. */
  readonly readyTimeoutMs: number;
  /** SIGTERM to SIGKILL (`--shutdown-grace-ms`). */
  readonly stopGraceMs: number;
  /** After forwarding turn.interrupt, how long the harness may take to leave on its own. */
  readonly interruptGraceMs: number;
  /** After the harness's terminal proposal, how long it may take to exit before it is stopped. */
  readonly terminalExitGraceMs: number;
  readonly harnessMaxLineBytes: number;
  readonly logTail: LogTailLimits;
}

export function localTimings(limits: LocalLimits = DEFAULT_LIMITS): LocalTimings {
  return {
    readyTimeoutMs: 10_000,
    stopGraceMs: limits.shutdownGraceMs,
    interruptGraceMs: 2_000,
    terminalExitGraceMs: 2_000,
    harnessMaxLineBytes: limits.harnessMaxLineBytes,
    logTail: { maxLines: limits.logMaxLines, maxBytes: limits.logMaxBytes },
  };
}
