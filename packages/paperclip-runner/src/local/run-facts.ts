import type { TerminalReason } from "../protocol/terminal-reason.js";

export type RunPhase =
  | "idle"
  | "prepared"
  | "starting_harness"
  | "session_open"
  | "turn_running"
  | "stopping"
  | "finished";

/** Why the runner is stopping the harness; the first cause recorded wins. */
export type StopCause =
  | "harness_protocol_violation"
  | "run_cancelled"
  | "turn_interrupted"
  | "controller_closed"
  | "runner_shutdown"
  | "harness_ready_timeout"
  /** The harness sent `terminal` but did not exit within its grace period. */
  | "harness_lingered";

/** What the runner knows about its run. Persisted in the durable state, so a restart resumes it. */
export interface RunFacts {
  readonly phase: RunPhase;
  readonly prepared: boolean;
  /** The session.open that opened the session; a restarted daemon reopens it with `resume: true`. */
  readonly session: { readonly commandId: string; readonly payload: Record<string, unknown> } | null;
  readonly turn: { readonly commandId: string } | null;
  readonly openRequests: readonly string[];
  readonly resultSeen: boolean;
  readonly harnessTerminal: { readonly status: string } | null;
  readonly stopCause: StopCause | null;
  readonly terminal: { readonly reason: TerminalReason; readonly seq: number } | null;
}

export const INITIAL_RUN_FACTS: RunFacts = {
  phase: "idle",
  prepared: false,
  session: null,
  turn: null,
  openRequests: [],
  resultSeen: false,
  harnessTerminal: null,
  stopCause: null,
  terminal: null,
};
