import { setTimeout as delay } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CommandRun } from "./command-run.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("CommandRun", () => {
  it("refuses to start when the caller has already cancelled", () => {
    const caller = new AbortController();
    caller.abort("early");
    expect(() => new CommandRun(caller.signal, undefined)).toThrow("CreateOS command was cancelled.");
  });
  it("tells a timeout from a cancellation", () => {
    vi.useFakeTimers();
    const timed = new CommandRun(undefined, 100);
    vi.advanceTimersByTime(100);
    expect([timed.timedOut, timed.cancelled]).toEqual([true, false]);
    const caller = new AbortController();
    const cancelledRun = new CommandRun(caller.signal, 100);
    caller.abort("user");
    expect([cancelledRun.timedOut, cancelledRun.cancelled, cancelledRun.cancelReason]).toEqual([
      false,
      true,
      "user",
    ]);
  });
  it("a deadline past a Node timer's range does not fire at once", async () => {
    // Real timers: Node runs a timer given more than 2^31-1 ms after 1 ms, before this 20 ms one.
    const run = new CommandRun(undefined, 3_000_000_000);
    await delay(20);
    expect(run.signal.aborted).toBe(false);
    run.dispose();
  });
  it("no timeout without a positive timeoutMs, and nothing fires after dispose", () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const run = new CommandRun(caller.signal, 100);
    run.dispose();
    vi.advanceTimersByTime(200);
    caller.abort();
    expect(run.signal.aborted).toBe(false);
    const untimed = new CommandRun(undefined, 0);
    vi.advanceTimersByTime(10_000);
    expect(untimed.signal.aborted).toBe(false);
  });
});
