import type { PrpEventType } from "../events/index.js";
import { boundedText } from "./bounded-text.js";
import { compactionEvent } from "./codex-compaction-event.js";
import { noticeEvent, planEvent } from "./codex-plan-notice-events.js";
import { TOOL_TRANSPORTS, toolExecutionEvent } from "./codex-tool-execution-event.js";
import { usageEvent } from "./codex-usage-events.js";
import { itemStatus } from "./item-status.js";
import {
  ownEntry,
  type ProviderEvent,
  providerEvent,
  stableId,
  type TurnTerminalStatus,
} from "./provider-event.js";

// The types most of the executor imports from here (the events a notification becomes).
export type { ProviderEvent, TurnTerminalStatus } from "./provider-event.js";

export interface NotificationContext {
  readonly provider: string;
  readonly threadId: string;
  readonly activeTurnId: string | null;
  /** The turn the runner settled last (in this process), or null: its late notifications are stale, not foreign. */
  readonly settledTurnId?: string | null;
}

/** Upstream's notice of a turn-scoped notification for a turn it settled already (`stale_settled_turn`). */
export const SETTLED_TURN_NOTICE = "ignored a notification for a settled Codex turn";

export type NotificationOutcome =
  | { readonly kind: "events"; readonly events: readonly ProviderEvent[] }
  /** The turn ended: its terminal event, and the agent's last message if the notification carried one. */
  | { readonly kind: "terminal"; readonly event: ProviderEvent; readonly status: TurnTerminalStatus }
  | { readonly kind: "agent_message"; readonly events: readonly ProviderEvent[]; readonly text: string }
  /** Names a turn of the thread that is not active (another thread is told by `codex-thread-identity.ts`): a protocol failure. */
  | { readonly kind: "foreign" }
  | { readonly kind: "ignored" };

/** The notifications that end a turn (its terminal), each mapped to its `TurnTerminalStatus`. */
export const TURN_TERMINAL_METHODS: ReadonlySet<string> = new Set([
  "turn/completed",
  "turn/failed",
  "turn/cancelled",
  "turn/interrupted",
]);

const TURN_SCOPED = new Set([
  "turn/started",
  "turn/completed",
  "item/started",
  "item/completed",
  "item/agentMessage/delta",
  "turn/plan/updated",
]);

/**
 * Pure: the PRP events one Codex app-server notification becomes, as upstream's
 * `normalize_codex_notification` maps them (types, priorities, payloads). Unknown
 * notifications are ignored; a turn-scoped one for another turn of the thread is
 * reported as foreign (the executor tells other threads apart before, by
 * `codex-thread-identity.ts`). A token-usage snapshot naming a
 * turn that is not active is what Codex replays on `thread/resume` for a turn the
 * runner already settled: benign, ignored (as the server's own driver does).
 */
export function codexNotificationEvents(
  method: string,
  params: Record<string, unknown>,
  context: NotificationContext,
): NotificationOutcome {
  const turnId = readTurnId(params);
  if (method === "thread/tokenUsage/updated") {
    if (turnId !== null && turnId !== context.activeTurnId) return { kind: "ignored" };
    return { kind: "events", events: [usageEvent(params, context)] };
  }
  if (TURN_SCOPED.has(method) && turnId !== null && turnId !== context.activeTurnId) {
    // As upstream's runner: what Codex still sends for the turn just settled (the terminal of an
    // interrupt sent while Codex was completing it, say) is noticed and ignored; any other turn
    // is foreign.
    if (turnId === context.settledTurnId)
      return { kind: "events", events: [noticeEvent("warning", { message: SETTLED_TURN_NOTICE })] };
    return { kind: "foreign" };
  }
  const provider = context.provider;
  if (TURN_TERMINAL_METHODS.has(method)) {
    const status = terminalStatus(method, params);
    return {
      kind: "terminal",
      status,
      event: providerEvent(`turn.${status}` as PrpEventType, 0, {
        provider,
        providerTurnId: turnId,
        status,
        error: turnError(params),
      }),
    };
  }
  switch (method) {
    case "turn/started":
      return {
        kind: "events",
        events: [providerEvent("turn.started", 0, { provider, providerTurnId: turnId })],
      };
    case "item/agentMessage/delta":
      return {
        kind: "events",
        events: [
          providerEvent("item.delta", 2, {
            provider,
            itemId: stableId(params.itemId, "codex-message"),
            kind: "agentMessage",
            channel: "progress",
            providerMethod: method,
            text: boundedText(params.delta),
          }),
        ],
      };
    case "item/started":
    case "item/completed":
      return itemEvents(method, params, provider);
    case "turn/plan/updated":
      return { kind: "events", events: [planEvent(params, turnId)] };
    case "thread/compacted":
      return { kind: "events", events: [compactionEvent(params)] };
    case "error":
    case "warning":
    case "deprecationNotice":
    case "configWarning":
      return { kind: "events", events: [noticeEvent(method, params)] };
    default:
      return { kind: "ignored" };
  }
}

function readTurnId(params: Record<string, unknown>): string | null {
  const direct = params.turnId;
  if (typeof direct === "string") return direct;
  const turn = params.turn as { id?: unknown } | undefined;
  return typeof turn?.id === "string" ? turn.id : null;
}

function terminalStatus(method: string, params: Record<string, unknown>): TurnTerminalStatus {
  if (method !== "turn/completed") return method.slice("turn/".length) as TurnTerminalStatus;
  const status = (params.turn as { status?: unknown } | undefined)?.status;
  if (status === "failed" || status === "interrupted" || status === "cancelled") return status;
  return "completed";
}

function itemEvents(method: string, params: Record<string, unknown>, provider: string): NotificationOutcome {
  const item = (params.item ?? {}) as Record<string, unknown>;
  const kind = typeof item.type === "string" ? item.type : "unknown";
  const started = method === "item/started";
  if (ownEntry(TOOL_TRANSPORTS, kind) !== undefined)
    return { kind: "events", events: [toolExecutionEvent(kind, item, started)] };
  const text = typeof item.text === "string" ? boundedText(item.text) : null;
  const status = itemStatus(item.status, started);
  const events = [
    providerEvent(started ? "item.started" : "item.completed", started ? 2 : 1, {
      provider,
      itemId: stableId(item.id, "codex-item"),
      kind,
      status,
      channel: kind === "agentMessage" ? "progress" : "detail",
      text,
    }),
  ];
  if (!started && kind === "agentMessage" && text !== null) return { kind: "agent_message", events, text };
  return { kind: "events", events };
}

/** The fields of Codex's turn error that upstream copies into `turn.failed`. */
const TURN_ERROR_DETAILS = ["codexErrorInfo", "additionalDetails", "misalignment"] as const;

/**
 * The turn's error as Codex reports it, or null: its message and details copied as upstream does
 * (text bounded and redacted, structured details as Codex gave them).
 */
function turnError(params: Record<string, unknown>): Record<string, unknown> | null {
  const error = (params.turn as { error?: unknown } | undefined)?.error ?? params.error;
  if (error === null || error === undefined || typeof error !== "object") return null;
  const source = error as Record<string, unknown>;
  const copied: Record<string, unknown> = { message: boundedText(source.message) };
  for (const field of TURN_ERROR_DETAILS) {
    if (!(field in source)) continue;
    const value = source[field];
    copied[field] = typeof value === "string" ? boundedText(value) : value;
  }
  return copied;
}
