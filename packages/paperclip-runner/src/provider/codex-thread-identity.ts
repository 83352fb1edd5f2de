/**
 * Which thread a Codex notification speaks for, as upstream's runner decides it
 * (`remember_spawned_descendants`, `remember_descendant_thread`): the opened (root) thread, one
 * of its sub-agent (descendant) threads, another thread whose news is harmless, or a thread the
 * runner cannot own. Learned by differential runs against upstream's binary
 * (`test/codex-descendants-upstream.test.ts`).
 */
export type ThreadIdentity =
  /** The root thread's own notification; `learned` names the sub-agent threads it reports spawned. */
  | { readonly kind: "own"; readonly learned: readonly string[] }
  /** A descendant's progress (`learned`: the thread, when this notification made it one). */
  | { readonly kind: "descendant"; readonly learned: readonly string[] }
  /** Another thread's information, which gives no authority: noticed and ignored. */
  | { readonly kind: "unrelated" }
  /** A protocol failure: the notification claims what no thread of this session may. */
  | { readonly kind: "mismatch"; readonly code: "thread_binding_mismatch" | "invalid_spawn_lineage" };

const MISMATCH: ThreadIdentity = { kind: "mismatch", code: "thread_binding_mismatch" };
const LINEAGE_BROKEN: ThreadIdentity = { kind: "mismatch", code: "invalid_spawn_lineage" };
const UNRELATED: ThreadIdentity = { kind: "unrelated" };

/** Upstream's bound on a provider thread or turn id: non-empty, at most 240 bytes of UTF-8. */
export function isValidProviderId(value: unknown): value is string {
  return typeof value === "string" && value !== "" && Buffer.byteLength(value) <= 240;
}

/**
 * The notifications of another thread upstream notices and ignores (`unrelated_information`);
 * any other one naming a thread that is neither the root nor a descendant fails the turn.
 */
export const UNRELATED_INFORMATION: ReadonlySet<string> = new Set([
  "thread/started",
  "thread/closed",
  "thread/status/changed",
  "thread/tokenUsage/updated",
  "warning",
  "deprecationNotice",
  "configWarning",
  "guardianWarning",
]);

/** Where a `thread/started` names the thread's parent (upstream's JSON pointers, each spelling Codex used). */
const PARENT_PATHS: readonly (readonly string[])[] = [
  ["parentThreadId"],
  ["source", "subAgent", "thread_spawn", "parent_thread_id"],
  ["source", "subAgent", "threadSpawn", "parentThreadId"],
  ["source", "subagent", "thread_spawn", "parent_thread_id"],
];

/** Pure: the thread a notification names as Codex sent it (`threadId`, else `thread.id`); undefined when none. */
export function notificationThreadId(params: Record<string, unknown>): unknown {
  const thread = params.thread;
  return (
    params.threadId ??
    (thread !== null && typeof thread === "object" ? (thread as { id?: unknown }).id : undefined)
  );
}

/** Pure: the turn a notification names as Codex sent it (`turnId`, else `turn.id`); undefined when none. */
export function notificationTurnId(params: Record<string, unknown>): unknown {
  const turn = params.turn;
  return (
    params.turnId ?? (turn !== null && typeof turn === "object" ? (turn as { id?: unknown }).id : undefined)
  );
}

/** Whether a thread is a known descendant (a lookup: the state keeps them as a list). */
export interface DescendantLookup {
  has(threadId: string): boolean;
}

/** Pure: the identity of one notification, given the root thread and its known descendants. */
export function classifyThreadIdentity(
  method: string,
  params: Record<string, unknown>,
  rootThreadId: string,
  descendants: DescendantLookup,
): ThreadIdentity {
  const threadId = notificationThreadId(params);
  // No thread named: the root's (Codex leaves it out of some of its own notices).
  if (threadId === undefined || threadId === null || threadId === rootThreadId)
    return ownIdentity(method, params, rootThreadId);
  if (!isValidProviderId(threadId)) return MISMATCH;
  if (descendants.has(threadId)) {
    const turnId = notificationTurnId(params);
    if (turnId !== undefined && turnId !== null && !isValidProviderId(turnId)) return MISMATCH;
    return { kind: "descendant", learned: [] };
  }
  if (method === "thread/started") return startedThread(params, threadId, rootThreadId, descendants);
  return UNRELATED_INFORMATION.has(method) ? UNRELATED : MISMATCH;
}

/** A new thread is a descendant when its one parent is the root or a descendant. */
function startedThread(
  params: Record<string, unknown>,
  threadId: string,
  rootThreadId: string,
  descendants: DescendantLookup,
): ThreadIdentity {
  const parents = new Set(
    PARENT_PATHS.map((path) => at(params.thread, path)).filter((parent) => parent !== undefined),
  );
  // Two spellings naming different parents: Codex contradicts itself about the lineage.
  if (parents.size > 1) return MISMATCH;
  const [parent] = parents;
  if (parent === rootThreadId || (typeof parent === "string" && descendants.has(parent)))
    return { kind: "descendant", learned: [threadId] };
  return UNRELATED;
}

/**
 * The root's own notification. A completed `spawnAgent` collab tool call names the threads it
 * spawned: they become descendants, provided the root sent it and every receiver is a thread id
 * other than the root's; anything else is a broken lineage. Other collab calls (`sendInput`,
 * `wait`, a failed spawn) teach nothing, as upstream's.
 */
function ownIdentity(method: string, params: Record<string, unknown>, rootThreadId: string): ThreadIdentity {
  const item = params.item as Record<string, unknown> | undefined;
  const spawned =
    method === "item/completed" &&
    item?.type === "collabAgentToolCall" &&
    item.tool === "spawnAgent" &&
    item.status === "completed";
  if (!spawned) return { kind: "own", learned: [] };
  const receivers = item.receiverThreadIds;
  const lineageBroken =
    item.senderThreadId !== rootThreadId ||
    !Array.isArray(receivers) ||
    !receivers.every((receiver) => isValidProviderId(receiver) && receiver !== rootThreadId);
  return lineageBroken ? LINEAGE_BROKEN : { kind: "own", learned: receivers as string[] };
}

function at(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
