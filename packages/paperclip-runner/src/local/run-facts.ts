import type { TerminalIntent, TerminalReason } from "../events/terminal.js";

export type RunPhase =
  | "idle"
  | "preparing"
  | "prepared"
  | "session_open"
  | "turn_running"
  | "stopping"
  | "finished";

/** A turn that ends hands the session back: the next `turn.start` may run; a run already stopping stays so. */
export function phaseAfterTurn(phase: RunPhase): RunPhase {
  return phase === "turn_running" ? "session_open" : phase;
}

/** A stop the runner chose; the first one recorded wins. */
export type StopIntent = Exclude<TerminalIntent, "natural">;

/** What the runner knows about its run. Persisted in the durable state, so a restart resumes it. */
export interface RunFacts {
  readonly phase: RunPhase;
  /** run.prepare was applied: the harness is (or was) started. */
  readonly prepared: boolean;
  /** The session.open that opened the session; a restarted daemon reopens it with `resume: true`. */
  readonly session: { readonly commandId: string; readonly payload: Record<string, unknown> } | null;
  readonly turn: { readonly commandId: string; readonly turnId: string | null } | null;
  readonly openRequests: readonly string[];
  /** The first semantic result, proposed as `run.result.proposed`; later ones are ignored. */
  readonly semanticResult: unknown;
  /** The harness's first terminal proposal; later ones are ignored. */
  readonly terminalProposal: unknown;
  readonly stopIntent: StopIntent | null;
  /** Why the stop happened, for the terminal's reconciliation (a violation's reason, a spawn error). */
  readonly stopCause: string | null;
  /** The harness proposed a terminal, then did not exit within its grace period and was stopped. */
  readonly lingered: boolean;
  readonly terminal: { readonly reason: TerminalReason; readonly seq: number } | null;
}

export const INITIAL_RUN_FACTS: RunFacts = {
  phase: "idle",
  prepared: false,
  session: null,
  turn: null,
  openRequests: [],
  semanticResult: null,
  terminalProposal: null,
  stopIntent: null,
  stopCause: null,
  lingered: false,
  terminal: null,
};
