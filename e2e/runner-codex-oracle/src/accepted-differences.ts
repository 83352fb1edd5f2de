/**
 * Differences between upstream's Rust runner (reference) and ours in the normalised committed PRP
 * streams, by kind (see `differenceKinds`), each with its reason; docs/compatibility.md lists
 * them too. A kind not listed here fails the differential test; a listed kind that no longer
 * occurs is fine (our runner caught up). "open:" marks a gap our runner is to close.
 */
export const ACCEPTED_SESSION_DIFFERENCES: Readonly<Record<string, string>> = {
  'provider.notice.recorded: payload.summary "Provider notice" vs "We’re currently experiencing high demand, which may cause temporary errors."':
    "ours keeps Codex's (bounded, redacted) error text; upstream's shipped binary replaces it with a generic summary",
};

/** The recovery scenarios, compared up to the resume (after it, ours must go on where upstream's fails). */
export const ACCEPTED_RECOVERY_DIFFERENCES: Readonly<Record<string, string>> = {};
