/**
 * The PRP event types (`eventType` of `paperclip.prp.event.v1`), as upstream's
 * published event schema enumerates them. An event of any other type fails
 * upstream's validators, so nothing outside this list is ever written.
 */
export const PRP_EVENT_TYPES = [
  "runner.connected",
  "runner.reconnected",
  "runner.reconciled",
  "runner.disconnected",
  "runner.draining",
  "runner.backpressure",
  "runner.suspending",
  "runner.suspended",
  "runner.stopped",
  "runner.diagnostic",
  "runtime.phase.changed",
  "sandbox.metric",
  "workspace.ready",
  "workspace.change.updated",
  "workspace.diff.recorded",
  "workspace.file.referenced",
  "harness.starting",
  "harness.ready",
  "harness.exited",
  "harness.diagnostic",
  "plan.updated",
  "tool.execution.started",
  "tool.execution.progressed",
  "tool.execution.completed",
  "research.started",
  "research.progressed",
  "research.completed",
  "delegation.started",
  "delegation.updated",
  "delegation.completed",
  "model.route.changed",
  "model.verification.updated",
  "context.compacted",
  "artifact.viewed",
  "artifact.generated",
  "review.mode.changed",
  "hook.started",
  "hook.completed",
  "memory.citation.referenced",
  "safety.review.started",
  "safety.review.completed",
  "terminal.input.sent",
  "wait.started",
  "wait.completed",
  "provider.notice.recorded",
  "session.starting",
  "session.started",
  "session.resuming",
  "session.resumed",
  "session.reconciled",
  "session.updated",
  "session.closed",
  "session.failed",
  "turn.submitted",
  "turn.accepted",
  "turn.started",
  "turn.completed",
  "turn.failed",
  "turn.interrupted",
  "turn.cancelled",
  "item.started",
  "item.delta",
  "item.completed",
  "item.failed",
  "usage.reported",
  "semantic_tool.input",
  "semantic_tool.result",
  "semantic_tool.reconciled",
  "mcp_app.discovered",
  "mcp_app.resource.resolved",
  "mcp_app.initializing",
  "mcp_app.ready",
  "mcp_app.tool_input",
  "mcp_app.tool_result",
  "mcp_app.action.requested",
  "mcp_app.action.resolved",
  "mcp_app.host_context.changed",
  "mcp_app.failed",
  "mcp_app.teardown",
  "runtime_request.created",
  "runtime_request.resolved",
  "runtime_request.expired",
  "runtime_request.cancelled",
  "interaction.request.proposed",
  "interaction.request.materialized",
  "interaction.request.rejected",
  "interaction.response.progressed",
  "interaction.response.resolved",
  "interaction.response.delivered",
  "run.attached",
  "run.detached",
  "run.result.proposed",
  "run.result.accepted",
  "run.result.rejected",
  "attention.request.proposed",
  "attention.request.routed",
  "attention.request.resolved",
  "attention.request.expired",
  "attention.request.superseded",
  "work.assessment.recorded",
  "issue.status.decision.recorded",
  "issue.status.decision.applied",
  "issue.status.decision.rejected",
  "issue.status.decision.superseded",
  "run.terminal",
] as const;

export type PrpEventType = (typeof PRP_EVENT_TYPES)[number];

/**
 * The event types PRP v2 added for a provider's session goals
 * (`paperclip.prp.event.v1` with `schemaVersion: 2`); upstream's runner emits
 * them when it opens a Codex thread and as its goal changes, and the server validates
 * them with its v2 schema.
 */
export const PRP_V2_EVENT_TYPES = [
  "session.capabilities.updated",
  "session.goal.snapshot",
  "session.goal.updated",
  "session.goal.cleared",
] as const;
export type PrpV2EventType = (typeof PRP_V2_EVENT_TYPES)[number];

const KNOWN: ReadonlySet<string> = new Set(PRP_EVENT_TYPES);

export function isPrpEventType(value: unknown): value is PrpEventType {
  return typeof value === "string" && KNOWN.has(value);
}

/**
 * Delivery priority, as upstream's runner assigns it: 0 for the events that
 * decide a run (results, terminals, turn ends, the harness exit), 2 for chatter
 * a loaded transport may shed first, 1 for everything else.
 */
export function eventPriority(eventType: PrpEventType | PrpV2EventType): 0 | 1 | 2 {
  switch (eventType) {
    case "run.result.proposed":
    case "run.terminal":
    case "turn.completed":
    case "turn.failed":
    case "turn.interrupted":
    case "harness.exited":
      return 0;
    case "item.delta":
    case "harness.diagnostic":
    case "runner.diagnostic":
      return 2;
    default:
      return 1;
  }
}
