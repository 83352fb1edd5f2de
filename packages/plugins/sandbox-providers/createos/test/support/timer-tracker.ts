import { createHook } from "node:async_hooks";

/** Says whether a client waited, by its own clock, until an instant (see `retryWaits`). */
export interface RetryWitness {
  /** A mark of the waits that have ended so far. */
  mark(): number;
  /** Whether a wait that ended after `since` (a `mark()`) was meant to last until `instant` (ms since the epoch) or later. */
  waitedUntil(instant: number, since: number): boolean;
}

/** What Node keeps on a `Timeout`: the delay it was given (at least 1 ms) and, for an interval, its period. */
interface TimeoutFields {
  readonly _idleTimeout: number;
  readonly _repeat: number | null;
  readonly _destroyed?: boolean;
}

/**
 * The referenced timers that code in one of `dirs` created since the last `reset()` and that have
 * neither fired nor been cleared. A count of every timer in the process would also count
 * vitest's own (an `expect.poll`'s deadline, its throttled task reports), which come and go
 * with scheduling and made a before/after comparison fail on a loaded machine; a timer's
 * creation stack says whose it is.
 *
 * `retryWaits` is the `RetryWitness` of those timers: each one-shot timer's deadline is the
 * wall-clock time it was created plus its delay, and a wait has ended once its callback runs.
 * A client that waits for a `Retry-After` computes the delay from the clock after the answer
 * came, so its wait's deadline is never before the instant the server named, however loaded
 * the machine; a client that ignored it waited for its own short backoff only.
 */
export function trackTimersCreatedIn(dirs: readonly string[]): {
  live(): number;
  reset(): void;
  readonly retryWaits: RetryWitness;
} {
  const timers = new Map<number, NodeJS.Timeout>();
  const deadlines = new Map<number, number>();
  const ended: number[] = [];
  createHook({
    init(id, type, _trigger, resource) {
      if (type !== "Timeout") return;
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 20;
      const stack = new Error().stack ?? "";
      Error.stackTraceLimit = limit;
      if (!dirs.some((dir) => stack.includes(dir))) return;
      timers.set(id, resource as NodeJS.Timeout);
      const fields = resource as TimeoutFields;
      if (fields._repeat === null) deadlines.set(id, Date.now() + fields._idleTimeout);
    },
    before(id) {
      const deadline = deadlines.get(id);
      if (deadline !== undefined) ended.push(deadline);
    },
    destroy(id) {
      timers.delete(id);
      deadlines.delete(id);
    },
  }).enable();
  return {
    // `destroy` reaches the hook only later (Node queues it); a Timeout that fired or was
    // cleared says so at once in its `_destroyed` field.
    live: () =>
      [...timers.values()].filter(
        (timer) => timer.hasRef() && !(timer as unknown as TimeoutFields)._destroyed,
      ).length,
    reset: () => timers.clear(),
    retryWaits: {
      mark: () => ended.length,
      waitedUntil: (instant, since) => ended.slice(since).some((deadline) => deadline >= instant),
    },
  };
}
