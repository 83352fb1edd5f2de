/**
 * Differences between upstream's Rust runner (reference) and ours in the normalised committed PRP
 * streams, by kind (see `differenceKinds`), each with its reason; docs/compatibility.md lists
 * them too. A kind not listed here fails the differential test; a listed kind that no longer
 * occurs is fine (our runner caught up). "open:" marks a gap our runner is to close.
 */
export const ACCEPTED_SESSION_DIFFERENCES: Readonly<Record<string, string>> = {
  "session.capabilities.updated: missing in the candidate":
    "open: upstream commits the v2 goal capabilities after session.started (thread/goal/get probe)",
  "session.goal.snapshot: missing in the candidate": "open: as above, the v2 goal snapshot",
  "harness.diagnostic: missing in the candidate":
    "open: upstream commits two provider_startup_ownership diagnostics after the first turn.accepted (and after a resume)",
  'provider.notice.recorded: payload.scope "turn" vs "session"':
    "open: upstream scopes Codex's model-metadata warning to the turn",
  "provider.notice.recorded: payload.userActionable true vs false":
    "open: upstream marks Codex warnings user-actionable",
  'item.started: payload.text null vs ""': "open: upstream reports a userMessage item's text as null",
  'item.completed: payload.text null vs ""': "open: as above",
  'usage.reported: payload.model null vs "mock-model"':
    "ours names the thread's model; upstream's shipped binary leaves it null",
  "turn.completed: payload.error missing": "open: upstream carries error:null on every turn terminal",
  "turn.failed: payload.error missing":
    "open: upstream carries Codex's turn error (message, codexErrorInfo) on a failed turn",
  'provider.notice.recorded: payload.summary "Provider notice" vs "We’re currently experiencing high demand, which may cause temporary errors."':
    "ours keeps Codex's (bounded, redacted) error text; upstream's shipped binary replaces it with a generic summary",
  "turn.interrupted: payload.error missing": "open: as above",
  "tool.execution.started: missing in the candidate":
    "open: upstream maps a dynamicToolCall item to tool.execution.started (P2) …",
  "tool.execution.completed: missing in the candidate": "open: … and tool.execution.completed (P1)",
  "item.started: extra, not in the reference": "open: ours emits the dynamicToolCall item as item.started …",
  "item.completed: extra, not in the reference": "open: … and item.completed",
  "harness.diagnostic: extra, not in the reference":
    "ours commits provider_interrupt_requested on turn.interrupt (upstream's source emits it; its shipped binary committed none)",
};

/** The recovery scenario, compared up to the resume (after it, ours must go on where upstream's fails). */
export const ACCEPTED_RECOVERY_DIFFERENCES: Readonly<Record<string, string>> = {
  ...ACCEPTED_SESSION_DIFFERENCES,
  "runner.reconciled: missing in the candidate":
    'open: upstream commits runner.reconciled {outcome:"same_durable_session_resumed"} when the restarted runner reconnects',
  "session.reconciled: missing in the candidate":
    "open: upstream commits session.reconciled before the killed turn's turn.failed, ours after it …",
  "session.reconciled: extra, not in the reference": "open: … (and ours omits its providerSessionId)",
  "semantic_tool.result: missing in the candidate":
    "open: after a SIGKILL with a tool call pending, upstream settles the call with a failed semantic_tool.result on resume; ours leaves it unsettled",
  "turn.failed: payload.code extra": 'ours adds code:"provider_turn_lost" to the killed turn\'s failure',
};
