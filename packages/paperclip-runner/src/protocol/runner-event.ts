import type { EVENT_SCHEMA } from "./schemas.js";

/** Event types the runner emits, in the order a run produces them. */
export type RunnerEventType =
  | "runner.started"
  | "runner.reconciled"
  | "run.phase"
  | "harness.starting"
  | "harness.ready"
  | "harness.event"
  | "harness.request"
  | "harness.result"
  | "harness.terminal"
  | "harness.log"
  | "harness.diagnostic"
  | "harness.protocol_violation"
  | "harness.exited"
  | "run.terminal";

/** One event on stdout. `seq` is contiguous from 1 for the whole run, across daemon restarts. */
export interface RunnerEvent {
  readonly schema: typeof EVENT_SCHEMA;
  readonly id: string;
  readonly runId: string;
  readonly sessionId: string;
  readonly runnerId: string;
  readonly seq: number;
  readonly type: RunnerEventType;
  readonly emittedAt: string;
  readonly data: Record<string, unknown>;
}

export function eventId(runId: string, seq: number): string {
  return `event_${runId}_${seq}`;
}
