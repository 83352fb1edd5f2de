import { CreateosError } from "@paperclipai/errors";
import type { CreateosClient } from "../client/createos-client.js";
import { EndingLeases } from "./ending-leases.js";

/** A sandbox whose end (release, destroy, rollback) failed: it may still run. */
export interface UnendedSandbox {
  readonly sandboxId: string;
  readonly operation: string;
}

/**
 * A lease the host holds (acquired or resumed here, not yet released or destroyed): the client
 * it was made with, so shutdown can end its sandbox when the host no longer can.
 */
export interface HeldLease {
  readonly sandboxId: string;
  readonly client: CreateosClient;
  readonly lifecycleTimeoutMs: number;
}

interface ActiveWork {
  readonly controller: AbortController;
  readonly done: Promise<unknown>;
}

/**
 * The worker's memory of its leases: which are blocked (a process may run unseen) and
 * which commands are active, so release and shutdown can stop them and wait for cleanup.
 */
export class LeaseRegistry {
  readonly #blocked = new Map<string, string>();
  readonly #unended = new Map<string, UnendedSandbox>();
  readonly #active = new Map<string, Set<ActiveWork>>();
  readonly #held = new Map<string, HeldLease>();
  readonly #ending = new EndingLeases();

  block(sandboxId: string, reason: string): void {
    if (!this.#blocked.has(sandboxId)) this.#blocked.set(sandboxId, reason);
  }

  isBlocked(sandboxId: string): boolean {
    return this.#blocked.has(sandboxId);
  }

  /** Refuses a blocked lease. */
  assertUsable(sandboxId: string): void {
    const reason = this.#blocked.get(sandboxId);
    if (reason !== undefined) {
      throw new CreateosError(
        "ERR_CREATEOS_LEASE_BLOCKED",
        "This CreateOS lease is blocked after an unconfirmed process outcome; destroy the lease before reusing it.",
        { details: { sandboxId, reason } },
      );
    }
  }

  /** Forgets a destroyed lease. */
  forget(sandboxId: string): void {
    this.#blocked.delete(sandboxId);
    this.#unended.delete(sandboxId);
    this.#held.delete(sandboxId);
  }

  /** Notes a lease handed to the host (acquired or resumed). */
  hold(lease: HeldLease): void {
    this.#held.set(lease.sandboxId, lease);
  }

  /** The host gave the lease back with its sandbox kept (paused for reuse). */
  letGo(sandboxId: string): void {
    this.#held.delete(sandboxId);
  }

  /** The held leases, those a release or destroy is ending included. */
  get held(): HeldLease[] {
    return [...this.#held.values()];
  }

  /**
   * Notes a release, destroy or pause after a failed resume under way until the returned
   * function is called: shutdown leaves the sandbox to it (a release for reuse pauses it, for
   * the host to resume) and a resume waits for it (`untilEnded`).
   */
  ending(sandboxId: string): () => void {
    return this.#ending.begin(sandboxId);
  }

  /** Waits until nothing is ending the sandbox; rejects with the signal's reason if aborted first. */
  untilEnded(sandboxId: string, signal: AbortSignal): Promise<void> {
    return this.#ending.settled(sandboxId, signal);
  }

  /**
   * The lease once no release or destroy is ending it any more, if it is still held then:
   * none was ending it, or the one that was failed to delete the sandbox.
   */
  async heldOnceEnded(sandboxId: string): Promise<HeldLease | undefined> {
    await this.#ending.settled(sandboxId);
    return this.#held.get(sandboxId);
  }

  /** Marks a sandbox that could not be ended: blocked for reuse and reported until destroyed. */
  markUnended(sandboxId: string, operation: string): void {
    this.block(sandboxId, `${operation} failed`);
    this.#unended.set(sandboxId, { sandboxId, operation });
  }

  get unended(): UnendedSandbox[] {
    return [...this.#unended.values()];
  }

  /** Runs work on a lease so that `stop` can abort it and wait for it. */
  async track<T>(
    sandboxId: string,
    parent: AbortSignal,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const controller = new AbortController();
    const onParent = (): void => controller.abort(parent.reason);
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener("abort", onParent, { once: true });
    const promise = work(controller.signal);
    const entry: ActiveWork = { controller, done: promise.catch(() => undefined) };
    let set = this.#active.get(sandboxId);
    if (set === undefined) {
      set = new Set();
      this.#active.set(sandboxId, set);
    }
    set.add(entry);
    try {
      return await promise;
    } finally {
      parent.removeEventListener("abort", onParent);
      set.delete(entry);
      if (set.size === 0) this.#active.delete(sandboxId);
    }
  }

  activeCount(sandboxId?: string): number {
    if (sandboxId !== undefined) return this.#active.get(sandboxId)?.size ?? 0;
    let total = 0;
    for (const set of this.#active.values()) total += set.size;
    return total;
  }

  get blockedCount(): number {
    return this.#blocked.size;
  }

  /** Aborts the lease's active work and waits until each has cleaned up (killed its process). */
  async stop(sandboxId: string, reason: unknown): Promise<void> {
    const set = this.#active.get(sandboxId);
    if (set === undefined) return;
    const entries = [...set];
    for (const entry of entries) entry.controller.abort(reason);
    await Promise.all(entries.map((entry) => entry.done));
  }

  async stopAll(reason: unknown): Promise<void> {
    await Promise.all([...this.#active.keys()].map((id) => this.stop(id, reason)));
  }
}
