import { differenceKinds } from "./normalise-events.js";

/**
 * Differences between upstream's Rust runner (reference) and ours in the normalised committed PRP
 * streams, by kind (see `differenceKinds`), each with its reason; docs/compatibility.md lists
 * them too. A kind not listed here fails the differential test; a listed kind that no longer
 * occurs is fine (our runner caught up). "open:" marks a gap our runner is to close.
 */
export const ACCEPTED_SESSION_DIFFERENCES: Readonly<Record<string, string>> = {};

/** The recovery scenarios, compared up to the resume (after it, ours must go on where upstream's fails). */
export const ACCEPTED_RECOVERY_DIFFERENCES: Readonly<Record<string, string>> = {};

/**
 * The `edges` scenario. Upstream's redactor also swallows the word after a sensitive key word
 * (`The token is ghp_…` becomes `The token [REDACTED] [REDACTED]`); ours redacts the secret and
 * keeps the prose. The test checks on its own that both bound the long answer the same way and
 * leak no secret.
 */
export const ACCEPTED_EDGE_DIFFERENCES: Readonly<Record<string, string>> = {
  'item.delta: payload.text "The token [REDACTED] [REDACTED]. " vs "The token is [REDACTED]. "':
    "ours redacts the secret and keeps the word before it; upstream's redactor replaces the word after `token` too",
  'item.completed: payload.text "The token [REDACTED] [REDACTED]. lorem ipsum dolor sit amet lorem ipsum dolor sit amet lorem ipsum dolor sit amet lo... vs "The token is [REDACTED]. lorem ipsum dolor sit amet lorem ipsum dolor sit amet lorem ipsum dolor sit amet lorem ipsu...':
    "the same redaction difference in the completed answer (both bounded to 4000 characters with the truncation marker)",
};

/**
 * The `beyond` scenario (compared up to the resume after SIGTERM). The same redaction difference
 * as in `edges`, in Codex's 401 message; and a steer sent right behind an interrupt: Codex answers
 * the interrupt and sends the turn's `turn/completed` right after it. Ours reads both before it
 * takes the next command, so it refuses the steer itself (no active turn); upstream's takes the
 * steer first and forwards it, and Codex refuses it. Both fail the steer with
 * `command_execution_failed`; when Codex is the one refusing, ours quotes it as upstream's does.
 */
export const ACCEPTED_BEYOND_DIFFERENCES: Readonly<Record<string, string>> = {
  'turn.failed: payload.error.message "unexpected status 401 Unauthorized: Incorrect API key [REDACTED], url: http://127.0.0.1:<port>/v1/responses" vs "unexpected status 401 Unauthorized: Incorrect API key provided., url: http://127.0.0.1:<port>/v1/responses"':
    "ours keeps the word after `key` in Codex's 401 message (nothing secret in it); upstream's redactor replaces the word after `key` too",
  'turn.steer: payload.result.message "Codex turn steer failed: Codex turn/steer failed: {\\"code\\":-32600,\\"message\\":\\"no active turn to steer\\"}" vs "Codex turn steer failed: Codex has no active provider turn"':
    "ours has read the interrupted turn's end when it takes the steer queued behind the interrupt and refuses it itself; upstream's forwards it and Codex refuses it (both fail the steer)",
};

/**
 * The `breadth` scenario: secret shapes in a streamed answer. Ours redacts every shape (an AWS
 * access key id, a Google API key, a Slack token and a URL's password among them, which
 * upstream's redactor leaves in the committed answer) and keeps the prose around them; upstream's
 * also replaces the word after a sensitive key word (`jwt`, `bearer`, `password`, `privateKey`,
 * `secret`), as in `edges`. The test checks on its own that no shape leaks from ours.
 */
export const ACCEPTED_BREADTH_DIFFERENCES: Readonly<Record<string, string>> = {
  'item.completed: payload.text "after the secret [REDACTED]" vs "after the secret steer"':
    "upstream's redactor replaces the word after `secret` in the model's plain answer (nothing secret in it); ours keeps it",
  'item.completed: payload.text "the aws value: AKIAQ3X7Q3X7Q3X7Q3X7\\nthe anthropic value: [REDACTED]\\nthe githubPat value: [REDACTED]\\nthe google va... vs "the aws value: [REDACTED]\\nthe anthropic value: [REDACTED]\\nthe githubPat value: [REDACTED]\\nthe google value: [REDA...':
    "the completed answer: the same redactions as in its deltas (ours redacts every shape, upstream's leaves four in it)",
  'item.delta: payload.text "the aws value: AKIAQ3X7Q3X7Q3X7Q3X7\\n" vs "the aws value: [REDACTED]\\n"':
    "ours redacts an AWS access key id; upstream's redactor leaves it in the answer",
  'item.delta: payload.text "the bearer [REDACTED] Authorization: Bearer [REDACTED]\\n" vs "the bearer value: Authorization: Bearer [REDACTED]\\n"':
    "both redact the bearer token; upstream's redactor also replaces the word after `bearer`, ours keeps the prose",
  'item.delta: payload.text "the google value: AIzaSy9Kx8Lw7Mv6Sy9Kx8Lw7Mv6Sy9Kx8Lw7Mv\\n" vs "the google value: [REDACTED]\\n"':
    "ours redacts a Google API key (`AIza…`); upstream's redactor leaves it in the answer",
  'item.delta: payload.text "the jwt [REDACTED] [REDACTED]\\n" vs "the jwt value: [REDACTED]\\n"':
    "both redact the token; upstream's redactor also replaces the word after `jwt`, ours keeps the prose",
  'item.delta: payload.text "the password [REDACTED] password=[REDACTED]\\n" vs "the password value: password=[REDACTED]\\n"':
    "both redact the password; upstream's redactor also replaces the word after `password`, ours keeps the prose",
  'item.delta: payload.text "the privateKey [REDACTED] [REDACTED]\\n" vs "the privateKey value: [REDACTED]\\n"':
    "both redact the key's whole block; upstream's redactor also replaces the word after `privateKey`, ours keeps the prose",
  'item.delta: payload.text "the slack value: xoxb-123412341234-567856785678-Pq1Rs2Tu3Vw4Pq1Rs2Tu3Vw4\\n" vs "the slack value: [REDACTED]\\n"':
    "ours redacts a Slack token (`xoxb-…`); upstream's redactor leaves it in the answer",
  'item.delta: payload.text "the urlCredentials value: https://agent:pa55w0rdpa55w0rd@git.example.com/repo.git\\n" vs "the urlCredentials value: https://agent:[REDACTED]@git.example.com/repo.git\\n"':
    "ours redacts the password in a URL's credentials; upstream's redactor leaves it in the answer",
  'item.started: payload.text "after the secret [REDACTED]" vs "after the secret steer"':
    "upstream's redactor replaces the word after `secret` in the model's plain answer (nothing secret in it); ours keeps it",
};

/** Kinds accepted in every scenario, by pattern, each with its reason. */
export const ACCEPTED_DIFFERENCE_PATTERNS: readonly { readonly pattern: RegExp; readonly reason: string }[] =
  [
    {
      pattern: /^provider\.notice\.recorded: payload\.summary "Provider notice" vs ".+$/,
      reason:
        "ours keeps Codex's (bounded, redacted) error text (a model error, a cut stream, a rate limit); upstream's shipped binary replaces it with a generic summary",
    },
    {
      // In the results of the commands the server queued (compared as events, `command-results.ts`).
      pattern:
        /^session\.snapshot: payload\.result\.warmAttachBlockers(\[0\])? .* vs "?\[?"warm_attach_unsupported"\]?$/,
      reason:
        "ours does not implement warm run attachment (run.attach is refused), so its snapshot names that as the blocker; upstream's names what it waits for (pending_messages, durable_pending_events, provider_unavailable)",
    },
    {
      pattern: /^session\.snapshot: payload\.result\.warmAttachReady true vs false$/,
      reason:
        "the same: ours never reports a run ready for warm attachment; upstream's does when nothing is pending (a snapshot between turns)",
    },
  ];

/** The kinds of difference in `differences` neither listed in `accepted` nor matching an accepted pattern. */
export function unlistedDifferences(
  differences: readonly string[],
  accepted: Readonly<Record<string, string>>,
): string[] {
  return differenceKinds(differences).filter(
    (kind) =>
      accepted[kind] === undefined && !ACCEPTED_DIFFERENCE_PATTERNS.some(({ pattern }) => pattern.test(kind)),
  );
}
