import { type PrpEventType, RUN_RESULT_SCHEMA, runResultProblem, TERMINAL_SCHEMA } from "../prp/index.js";
import type { DurableEventKind } from "./prp-envelope.js";

/** One line of the engine's output, as durable mode uses it. */
export type EngineOutput =
  | {
      readonly kind: "event";
      /** The engine's own contiguous numbering; a restarted engine resends the events it has no ack for. */
      readonly engineSeq: number;
      readonly event: DurableEventKind;
      /** On the engine's `runner.reconciled`: the last controllerSeq the engine had seen. */
      readonly engineLastControllerSeq: number | null;
      readonly terminal: boolean;
    }
  | {
      readonly kind: "receipt";
      readonly commandId: string | null;
      readonly status: "accepted" | "duplicate" | "rejected" | "indeterminate";
      readonly message: string;
      readonly original: { readonly status: string; readonly message: string } | null;
    }
  | { readonly kind: "other" };

const TURN_STATES: Record<string, [string, string, string]> = {
  successful_process_and_result: ["completed", "succeeded", "done"],
  run_cancelled: ["cancelled", "cancelled", "yielded"],
  turn_interrupted: ["interrupted", "cancelled", "yielded"],
  runner_shutdown: ["cancelled", "cancelled", "yielded"],
  controller_closed: ["cancelled", "cancelled", "yielded"],
};

/**
 * Pure: reads one engine output line. Each local event type has its PRP event
 * type; `harness.result` becomes `run.result.proposed` (a harness result that is
 * not a `paperclip.run_result.v1` is summarised into one) and `run.terminal`
 * carries a `paperclip.prp.terminal.v1`.
 */
export function readEngineLine(line: string): EngineOutput {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return { kind: "other" };
  }
  if (value.schema === "paperclip.prp.receipt.v1") {
    const original = value.original as { status: string; message: string } | undefined;
    return {
      kind: "receipt",
      commandId: typeof value.commandId === "string" ? value.commandId : null,
      status: value.status as "accepted",
      message: String(value.message ?? ""),
      original: original ?? null,
    };
  }
  if (value.schema !== "paperclip.runner.stream.v1") return { kind: "other" };
  const type = String(value.type);
  const data = (value.data ?? {}) as Record<string, unknown>;
  const emittedAt = String(value.emittedAt);
  const event = (eventType: PrpEventType, payload: Record<string, unknown>): DurableEventKind => ({
    eventType,
    payload,
    emittedAt,
  });
  const mapped = ((): DurableEventKind | null => {
    switch (type) {
      case "runner.started":
        return event("runner.connected", { mode: "durable" });
      case "runner.reconciled":
        return event("runner.reconciled", data);
      case "run.phase":
        return event("runtime.phase.changed", data);
      case "harness.starting":
      case "harness.ready":
      case "harness.exited":
        return event(type as PrpEventType, data);
      case "harness.event":
        return event("item.completed", { channel: "detail", ...data });
      case "harness.request":
        return event("runtime_request.created", data);
      case "harness.result":
        return event("run.result.proposed", runResult(data.result));
      case "harness.terminal":
        return event("turn.completed", data);
      case "harness.log":
      case "harness.diagnostic":
        return event("harness.diagnostic", data);
      case "harness.protocol_violation":
        return event("runner.diagnostic", { channel: "detail", ...data });
      case "run.terminal": {
        const [turn, run, disposition] = TURN_STATES[String(data.reason)] ?? ["failed", "failed", "blocked"];
        return event("run.terminal", {
          schema: TERMINAL_SCHEMA,
          turnTerminalState: turn,
          runTerminalState: run,
          reportedWorkDisposition: disposition,
          reason: data.reason,
          detail: data.detail,
        });
      }
      default:
        return null;
    }
  })();
  if (mapped === null) return { kind: "other" };
  return {
    kind: "event",
    engineSeq: Number(value.seq),
    event: mapped,
    engineLastControllerSeq:
      type === "runner.reconciled" && typeof data.lastControllerSeq === "number"
        ? data.lastControllerSeq
        : null,
    terminal: type === "run.terminal",
  };
}

function runResult(result: unknown): Record<string, unknown> {
  if (runResultProblem(result) === null) return result as Record<string, unknown>;
  const summary = typeof result === "string" && result !== "" ? result : JSON.stringify(result ?? null);
  return {
    schema: RUN_RESULT_SCHEMA,
    reportedWorkDisposition: "done",
    summary: summary.slice(0, 12_000),
    completionClaim: { contractRevision: "1", objectiveSatisfied: true, criteria: [], remainingWork: [] },
    evidence: [],
    verification: [],
    attentionRequests: [],
    artifacts: [],
  };
}
