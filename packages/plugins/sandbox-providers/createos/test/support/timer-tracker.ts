import { createHook } from "node:async_hooks";

/**
 * The referenced timers that code in one of `dirs` created since the last `reset()` and that have
 * neither fired nor been cleared. A count of every timer in the process would also count
 * vitest's own (an `expect.poll`'s deadline, its throttled task reports), which come and go
 * with scheduling and made a before/after comparison fail on a loaded machine; a timer's
 * creation stack says whose it is.
 */
export function trackTimersCreatedIn(dirs: readonly string[]): { live(): number; reset(): void } {
  const timers = new Map<number, NodeJS.Timeout>();
  createHook({
    init(id, type, _trigger, resource) {
      if (type !== "Timeout") return;
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 20;
      const stack = new Error().stack ?? "";
      Error.stackTraceLimit = limit;
      if (dirs.some((dir) => stack.includes(dir))) timers.set(id, resource as NodeJS.Timeout);
    },
    destroy(id) {
      timers.delete(id);
    },
  }).enable();
  return {
    // `destroy` reaches the hook only later (Node queues it); a Timeout that fired or was
    // cleared says so at once in its `_destroyed` field.
    live: () =>
      [...timers.values()].filter(
        (timer) => timer.hasRef() && !(timer as NodeJS.Timeout & { _destroyed?: boolean })._destroyed,
      ).length,
    reset: () => timers.clear(),
  };
}
