import { createHash } from "node:crypto";
import { redactSecrets } from "@paperclipai/errors";
import type { PrpEventType, PrpV2EventType } from "../events/index.js";
import { boundedText } from "./bounded-text.js";

/** One PRP event the executor emits, with upstream's priority for it. */
export interface ProviderEvent {
  readonly eventType: PrpEventType | PrpV2EventType;
  readonly priority: 0 | 1 | 2;
  readonly payload: Record<string, unknown>;
  /** 2 for the session-goal event types PRP v2 added. */
  readonly schemaVersion?: 1 | 2;
}

export type TurnTerminalStatus = "completed" | "failed" | "cancelled" | "interrupted";

export interface NotificationContext {
  readonly provider: string;
  readonly threadId: string;
  readonly activeTurnId: string | null;
}

export type NotificationOutcome =
  | { readonly kind: "events"; readonly events: readonly ProviderEvent[] }
  /** The turn ended: its terminal event, and the agent's last message if the notification carried one. */
  | { readonly kind: "terminal"; readonly event: ProviderEvent; readonly status: TurnTerminalStatus }
  | { readonly kind: "agent_message"; readonly events: readonly ProviderEvent[]; readonly text: string }
  /** Names a thread or turn the runner does not own: a protocol failure. */
  | { readonly kind: "foreign"; readonly reason: string }
  | { readonly kind: "ignored" };

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
 * notifications are ignored; a notification for another thread, or a turn-scoped
 * one for another turn, is reported as foreign. A token-usage snapshot naming a
 * turn that is not active is what Codex replays on `thread/resume` for a turn the
 * runner already settled: benign, ignored (as the server's own driver does).
 */
export function codexNotificationEvents(
  method: string,
  params: Record<string, unknown>,
  context: NotificationContext,
): NotificationOutcome {
  const threadId = params.threadId ?? (params.thread as { id?: unknown } | undefined)?.id;
  if (typeof threadId === "string" && threadId !== context.threadId) {
    return { kind: "foreign", reason: `a ${method} notification names another thread` };
  }
  const turnId = readTurnId(params);
  if (method === "thread/tokenUsage/updated") {
    if (turnId !== null && turnId !== context.activeTurnId) return { kind: "ignored" };
    return { kind: "events", events: [usageEvent(params, context)] };
  }
  if (TURN_SCOPED.has(method) && turnId !== null && turnId !== context.activeTurnId) {
    return { kind: "foreign", reason: `a ${method} notification names a turn that is not active` };
  }
  const provider = context.provider;
  switch (method) {
    case "turn/started":
      return { kind: "events", events: [event("turn.started", 0, { provider, providerTurnId: turnId })] };
    case "turn/completed":
    case "turn/failed":
    case "turn/cancelled":
    case "turn/interrupted": {
      const status = terminalStatus(method, params);
      return {
        kind: "terminal",
        status,
        event: event(`turn.${status}` as PrpEventType, 0, {
          provider,
          providerTurnId: turnId,
          status,
          error: turnError(params),
        }),
      };
    }
    case "item/agentMessage/delta":
      return {
        kind: "events",
        events: [
          event("item.delta", 2, {
            provider,
            itemId: String(params.itemId ?? ""),
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
    case "error":
    case "warning":
    case "deprecationNotice":
    case "configWarning":
      return { kind: "events", events: [noticeEvent(method, params, context.activeTurnId !== null)] };
    default:
      return { kind: "ignored" };
  }
}

function event(
  eventType: PrpEventType,
  priority: 0 | 1 | 2,
  payload: Record<string, unknown>,
): ProviderEvent {
  return { eventType, priority, payload };
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
  if (TOOL_TRANSPORTS[kind] !== undefined)
    return { kind: "events", events: [toolExecutionEvent(kind, item, started)] };
  const text = typeof item.text === "string" ? boundedText(item.text) : null;
  const status = started ? "running" : itemStatus(item.status);
  const events = [
    event(started ? "item.started" : "item.completed", started ? 2 : 1, {
      provider,
      itemId: String(item.id ?? ""),
      kind,
      status,
      channel: kind === "agentMessage" ? "progress" : "detail",
      text,
    }),
  ];
  if (!started && kind === "agentMessage" && text !== null) return { kind: "agent_message", events, text };
  return { kind: "events", events };
}

/** The Codex item types that are tool executions, and their transport in `paperclip.tool.execution.v1`. */
const TOOL_TRANSPORTS: Readonly<Record<string, "process" | "mcp" | "dynamic">> = {
  commandExecution: "process",
  mcpToolCall: "mcp",
  dynamicToolCall: "dynamic",
};
const TOOL_OUTPUT_MAX = 65_536;

function toolExecutionEvent(kind: string, item: Record<string, unknown>, started: boolean): ProviderEvent {
  const raw = typeof item.aggregatedOutput === "string" ? item.aggregatedOutput : "";
  const output = boundedToolOutput(raw);
  const name = item.tool ?? item.command ?? null;
  const duration = item.durationMs;
  const exitCode = item.exitCode;
  return event(started ? "tool.execution.started" : "tool.execution.completed", started ? 2 : 1, {
    schema: "paperclip.tool.execution.v1",
    executionId: String(item.id ?? item.callId ?? "tool").slice(0, 160),
    transport: TOOL_TRANSPORTS[kind],
    operation: kind === "commandExecution" ? "execute" : "unknown",
    name: typeof name === "string" ? boundedText(name) : null,
    target: null,
    namespace:
      typeof item.namespace === "string"
        ? item.namespace.slice(0, 240)
        : typeof item.server === "string"
          ? item.server.slice(0, 240)
          : null,
    readOnly: null,
    status: started ? "running" : toolStatus(item.status),
    durationMs:
      typeof duration === "number" && Number.isSafeInteger(duration) && duration >= 0 ? duration : null,
    exitCode: typeof exitCode === "number" && Number.isSafeInteger(exitCode) ? exitCode : null,
    progress: null,
    output,
    outputBytes: Buffer.byteLength(raw),
    outputTruncated: output.length < raw.length,
    outputDigest: `sha256:${createHash("sha256").update(raw).digest("hex")}`,
  });
}

function boundedToolOutput(raw: string): string {
  return redactSecrets(raw).slice(0, TOOL_OUTPUT_MAX);
}

function toolStatus(status: unknown): string {
  if (status === "failed" || status === "declined") return "failed";
  if (status === "interrupted" || status === "cancelled") return status;
  return "completed";
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

function itemStatus(status: unknown): string {
  if (status === "failed" || status === "declined") return "failed";
  if (status === "inProgress") return "running";
  return "completed";
}

function usageEvent(params: Record<string, unknown>, context: NotificationContext): ProviderEvent {
  const usage = (params.tokenUsage ?? {}) as Record<string, unknown>;
  const total = measurement(usage.total);
  const last = usage.last === undefined ? null : measurement(usage.last);
  return event("usage.reported", 0, {
    provider: context.provider,
    // Upstream's runner reports no model here (the server knows the one it asked for).
    model: null,
    providerSessionId: context.threadId,
    providerRequestId: null,
    cumulative: total,
    runDeltaAvailable: last !== null,
    runDelta: last ?? measurement({}),
  });
}

/**
 * Pure: the diagnostic upstream's runner commits for the token-usage snapshot Codex replays
 * while it resumes a thread (naming the thread's last, settled turn), instead of usage.
 */
export function resumeUsageDiagnostic(params: Record<string, unknown>): ProviderEvent {
  const usage = (params.tokenUsage ?? {}) as Record<string, unknown>;
  return event("harness.diagnostic", 0, {
    code: "codex_resume_usage_snapshot",
    classification: "resume_usage_snapshot",
    method: "thread/tokenUsage/updated",
    receivedThreadId: typeof params.threadId === "string" ? params.threadId : null,
    receivedTurnId: typeof params.turnId === "string" ? params.turnId : null,
    cumulative: measurement(usage.total),
  });
}

function measurement(value: unknown): Record<string, number> {
  const usage = (value ?? {}) as Record<string, unknown>;
  const count = (name: string): number => {
    const n = usage[name];
    return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : 0;
  };
  return {
    inputTokens: count("inputTokens"),
    outputTokens: count("outputTokens"),
    cacheReadTokens: count("cachedInputTokens"),
    cacheWriteTokens: 0,
    activeSeconds: 0,
    requests: 0,
    providerCostUsd: 0,
  };
}

const PLAN_STATUS: Readonly<Record<string, string>> = {
  pending: "pending",
  inProgress: "in_progress",
  in_progress: "in_progress",
  completed: "completed",
};

function planEvent(params: Record<string, unknown>, turnId: string | null): ProviderEvent {
  const plan = Array.isArray(params.plan) ? (params.plan as Record<string, unknown>[]) : [];
  const steps = plan.slice(0, 256).map((step, index) => ({
    stepId: `step-${index + 1}`,
    body: boundedText(step.step),
    status: PLAN_STATUS[String(step.status)] ?? "pending",
  }));
  return event("plan.updated", 1, {
    schema: "paperclip.plan.updated.v1",
    planId: safeId(`plan-${turnId ?? "turn"}`),
    revision: 1,
    explanation: typeof params.explanation === "string" ? boundedText(params.explanation) : null,
    steps,
    complete: steps.length > 0 && steps.every((step) => step.status === "completed"),
    syncStatus: "not_applicable",
    documentRevision: null,
  });
}

function noticeEvent(method: string, params: Record<string, unknown>, inTurn: boolean): ProviderEvent {
  const error = method === "error";
  const message =
    (params.error as { message?: unknown } | undefined)?.message ?? params.message ?? params.summary;
  const summary = boundedText(message) || method;
  return event("provider.notice.recorded", 0, {
    schema: "paperclip.provider.notice.v1",
    noticeId: `codex-${method.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}`,
    severity: error ? "error" : method === "deprecationNotice" ? "info" : "warning",
    category: method,
    scope: inTurn ? "turn" : "session",
    // An error is never recoverable in upstream's notice, even one Codex retries (`willRetry`).
    recoverable: !error,
    // As the shipped normaliser (`provider-events.js`): errors and warnings ask the user to act.
    userActionable: error || method === "warning",
    summary,
  });
}

function safeId(value: string): string {
  const cleaned = value.replace(/[^A-Za-z0-9._:-]/g, "-").slice(0, 160);
  return /^[A-Za-z0-9]/.test(cleaned) ? cleaned : `p${cleaned.slice(0, 159)}`;
}
