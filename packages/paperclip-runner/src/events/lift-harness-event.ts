import { isPrpEventType, type PrpEventType } from "./event-types.js";
import { PRP_TURN_ID_MAX_LENGTH } from "./prp-event.js";

/**
 * Event types only the runner emits: a harness reports these facts through its own messages,
 * or not at all. Every `runner.*` type is the runner's; these are the others.
 */
const RUNNER_OWNED: ReadonlySet<string> = new Set([
  "harness.starting",
  "harness.ready",
  "harness.exited",
  "harness.diagnostic",
  "session.starting",
  "turn.submitted",
  "runtime_request.created",
  "run.attached",
  "run.detached",
  "run.result.proposed",
  "run.result.accepted",
  "run.result.rejected",
  "run.terminal",
]);

function isRunnerOwned(eventType: string): boolean {
  return eventType.startsWith("runner.") || RUNNER_OWNED.has(eventType);
}

/**
 * Event types whose payload upstream's schema types in detail. The runner does
 * not carry those schemas, so it cannot promise such an event would validate:
 * it reports the event as not forwarded instead of writing a line that might not.
 */
const TYPED_PAYLOAD_PREFIXES = [
  "plan.",
  "tool.execution.",
  "research.",
  "delegation.",
  "model.",
  "context.",
  "artifact.",
  "review.",
  "hook.",
  "memory.",
  "safety.",
  "terminal.",
  "wait.",
  "provider.",
  "workspace.",
  "semantic_tool.",
  "mcp_app.tool_",
];

const CHANNELS = ["progress", "final", "summary", "detail", "unknown"];

export type LiftedHarnessEvent =
  | {
      readonly kind: "event";
      readonly eventType: PrpEventType;
      readonly payload: Record<string, unknown>;
      readonly turnId: string | null;
      readonly itemId: string | null;
    }
  /** A well-formed event the runner chooses not to forward (reported as a diagnostic). */
  | { readonly kind: "not_forwarded"; readonly eventType: string; readonly reason: string }
  /** The harness broke the protocol. */
  | { readonly kind: "violation"; readonly reason: string };

/**
 * Pure: a harness event (`{ eventType, turnId?, itemId?, payload? }`) as the PRP
 * event the runner emits at the top level of its stream, or why it cannot be.
 * The event carries the turn and item the harness names, as upstream's runner does.
 */
export function liftHarnessEvent(event: Record<string, unknown>): LiftedHarnessEvent {
  const eventType = event.eventType;
  if (typeof eventType !== "string" || eventType === "") {
    return { kind: "violation", reason: "harness event requires eventType" };
  }
  if (!isPrpEventType(eventType)) {
    return {
      kind: "violation",
      reason: `harness event type ${JSON.stringify(eventType.slice(0, 80))} is not a PRP event type`,
    };
  }
  if (isRunnerOwned(eventType)) {
    return { kind: "violation", reason: `harness event type ${eventType} is emitted by the runner only` };
  }
  if (
    TYPED_PAYLOAD_PREFIXES.some((prefix) => eventType.startsWith(prefix)) &&
    eventType !== "workspace.ready"
  ) {
    return { kind: "not_forwarded", eventType, reason: "its payload schema is not validated by this runner" };
  }
  const payload = event.payload ?? {};
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    return { kind: "violation", reason: "harness event payload must be an object" };
  }
  const channel = (payload as Record<string, unknown>).channel;
  if (channel !== undefined && !CHANNELS.includes(channel as string)) {
    return {
      kind: "violation",
      reason: `harness event payload.channel must be one of ${CHANNELS.join(", ")}`,
    };
  }
  for (const key of ["providerPhase", "providerMethod"]) {
    const value = (payload as Record<string, unknown>)[key];
    if (value !== undefined && typeof value !== "string") {
      return { kind: "violation", reason: `harness event payload.${key} must be a string` };
    }
  }
  const turnId = optionalId(event.turnId, "turnId");
  if (typeof turnId === "object" && turnId !== null) return turnId;
  const itemId = optionalId(event.itemId, "itemId");
  if (typeof itemId === "object" && itemId !== null) return itemId;
  return {
    kind: "event",
    eventType,
    payload: payload as Record<string, unknown>,
    turnId,
    itemId,
  };
}

function optionalId(value: unknown, name: string): string | null | { kind: "violation"; reason: string } {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || value.length === 0 || value.length > PRP_TURN_ID_MAX_LENGTH) {
    return {
      kind: "violation",
      reason: `harness event ${name} must be a string of 1 to ${PRP_TURN_ID_MAX_LENGTH} characters`,
    };
  }
  return value;
}
