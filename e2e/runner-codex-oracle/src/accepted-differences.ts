/**
 * Differences between upstream's Rust runner (reference) and ours in the normalised committed PRP
 * streams, by kind (see `differenceKinds`), each with its reason; docs/compatibility.md lists
 * them too. A kind not listed here fails the differential test; a listed kind that no longer
 * occurs is fine (our runner caught up). "open:" marks a gap our runner is to close.
 */
export const ACCEPTED_SESSION_DIFFERENCES: Readonly<Record<string, string>> = {
  'provider.notice.recorded: payload.summary "Provider notice" vs "We’re currently experiencing high demand, which may cause temporary errors."':
    "ours keeps Codex's (bounded, redacted) error text; upstream's shipped binary replaces it with a generic summary",
  "provider.notice.recorded: payload.userActionable true vs false":
    "open: upstream marks Codex's error notification user-actionable",
  "turn.failed: payload.error.additionalDetails missing":
    "open: upstream copies Codex's whole turn error (message, codexErrorInfo, additionalDetails, misalignment)",
  "turn.failed: payload.error.codexErrorInfo missing": "open: as above",
  "turn.failed: payload.error.misalignment missing": "open: as above",
};

/** The recovery scenarios, compared up to the resume (after it, ours must go on where upstream's fails). */
export const ACCEPTED_RECOVERY_DIFFERENCES: Readonly<Record<string, string>> = {
  "semantic_tool.result: missing in the candidate":
    "open: after a SIGKILL with a tool call pending, upstream settles the call with a failed semantic_tool.result on resume; ours leaves it unsettled",
};
