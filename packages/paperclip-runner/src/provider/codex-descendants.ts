import { corruptState } from "../state/parse-runner-state.js";

/**
 * How many sub-agent threads a session remembers (upstream's child-thread inventory): one more
 * is `provider_descendant_capacity_exhausted`, the session left for reconciliation.
 */
export const MAX_DESCENDANT_THREADS = 4096;

export type DescendantsAdded =
  | { readonly kind: "added"; readonly descendantThreadIds: readonly string[] }
  | { readonly kind: "exhausted" };

/**
 * Pure: the descendants with `learned` added, kept sorted and unique as upstream saves them
 * (`descendantThreadIds` of `codex-provider-state.json`), or exhausted past the inventory's limit.
 */
export function addDescendants(known: readonly string[], learned: readonly string[]): DescendantsAdded {
  const all = new Set(known);
  for (const threadId of learned) all.add(threadId);
  if (all.size > MAX_DESCENDANT_THREADS) return { kind: "exhausted" };
  // Byte order of the UTF-8, as Rust orders the strings of its set.
  const ordered = [...all].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return { kind: "added", descendantThreadIds: ordered };
}

/**
 * Pure: the saved descendants (none when absent: a state saved before they were kept). Anything
 * but a list of non-empty strings is `ERR_RUNNER_STATE_CORRUPT`: a descendant's notifications
 * are told from a foreign thread's by exact match.
 */
export function readDescendantThreadIds(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((id) => typeof id === "string" && id !== ""))
    throw corruptState("codex-provider-state.json descendantThreadIds is not a list of thread ids");
  return value as string[];
}
