import {
  type DescendantLookup,
  isValidProviderId,
  notificationThreadId,
  UNRELATED_INFORMATION,
} from "./codex-thread-identity.js";

/**
 * How many notifications of not-yet-named threads a turn holds while its sub-agents spawn; one
 * more is judged at once (a thread binding mismatch, as upstream's runner judges the first).
 */
export const MAX_EARLY_DESCENDANT_NOTES = 256;

/** A notification held back until the spawn that may name its thread completes. */
export interface HeldNote {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** Pure: the root's `spawnAgent` collab tool call item in `params`, when the notification is about one. */
function spawnItemId(method: string, params: Record<string, unknown>, rootThreadId: string): string | null {
  if (method !== "item/started" && method !== "item/completed") return null;
  const threadId = notificationThreadId(params);
  if (threadId !== undefined && threadId !== null && threadId !== rootThreadId) return null;
  const item = params.item as Record<string, unknown> | undefined;
  if (item?.type !== "collabAgentToolCall" || item.tool !== "spawnAgent") return null;
  return typeof item.id === "string" ? item.id : null;
}

/**
 * Real Codex 0.156.1 sometimes sends a spawned sub-agent's first notifications (its
 * `turn/started`) before the root's completed `spawnAgent` call that names the child, and
 * upstream's runner fails the turn on them (`thread_binding_mismatch`): a sub-agent turn then fails
 * by chance. While one of the root's `spawnAgent` calls is in progress, a notification of a thread
 * neither the root nor a known descendant is held instead, and judged again once the call ends:
 * a child the call named is a descendant, any other thread the mismatch it always was. Only
 * notifications that would fail the turn are held (another thread's information is noticed at
 * once, as before), and never a request: a tool call or a question stays the root's alone.
 */
export class EarlyDescendantNotes {
  /** The item ids of the root's `spawnAgent` calls started and not completed. */
  private readonly spawning = new Set<string>();
  private held: HeldNote[] = [];

  /**
   * Follows the root's spawn calls; true when this notification completed one while notes are
   * held (they are to be judged again once it is handled).
   */
  observe(method: string, params: Record<string, unknown>, rootThreadId: string): boolean {
    const itemId = spawnItemId(method, params, rootThreadId);
    if (itemId === null) return false;
    if (method === "item/started") {
      this.spawning.add(itemId);
      return false;
    }
    this.spawning.delete(itemId);
    return this.held.length > 0;
  }

  /** Holds the notification when it would fail the turn and a spawn may yet name its thread. */
  hold(
    method: string,
    params: Record<string, unknown>,
    rootThreadId: string,
    descendants: DescendantLookup,
  ): boolean {
    if (this.spawning.size === 0 || this.held.length >= MAX_EARLY_DESCENDANT_NOTES) return false;
    const threadId = notificationThreadId(params);
    const unknownThread =
      isValidProviderId(threadId) && threadId !== rootThreadId && !descendants.has(threadId);
    if (!unknownThread || method === "thread/started" || UNRELATED_INFORMATION.has(method)) return false;
    this.held.push({ method, params });
    return true;
  }

  /** The held notes, in arrival order, no longer held. */
  take(): HeldNote[] {
    const taken = this.held;
    this.held = [];
    return taken;
  }

  /** The turn is over: no spawn of it is awaited, and what it held is taken to be judged. */
  endTurn(): HeldNote[] {
    this.spawning.clear();
    return this.take();
  }
}
