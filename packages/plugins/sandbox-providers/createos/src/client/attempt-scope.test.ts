import { afterEach, describe, expect, it, vi } from "vitest";
import { AttemptScope } from "./attempt-scope.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("AttemptScope", () => {
  it("follows the caller's signal, also when it aborted before the scope began", () => {
    const caller = new AbortController();
    const scope = new AttemptScope(caller.signal, 1_000);
    caller.abort("cancelled");
    expect(scope.signal.reason).toBe("cancelled");
    expect(scope.timedOut).toBe(false);
    scope.release();
    expect(new AttemptScope(caller.signal, 1_000).signal.aborted).toBe(true);
  });
  it("aborts as timed out when its deadline passes, restarted by refresh", () => {
    vi.useFakeTimers();
    const scope = new AttemptScope(undefined, 100);
    vi.advanceTimersByTime(60);
    scope.refresh();
    vi.advanceTimersByTime(60);
    expect(scope.signal.aborted).toBe(false);
    vi.advanceTimersByTime(40);
    expect(scope.timedOut).toBe(true);
  });
  it("after release neither the caller nor the deadline aborts it; a stream keeps the caller", () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const released = new AttemptScope(caller.signal, 100);
    released.release();
    const streaming = new AttemptScope(caller.signal, 100);
    streaming.stopDeadline();
    vi.advanceTimersByTime(200);
    expect(streaming.signal.aborted).toBe(false);
    caller.abort("gone");
    expect(released.signal.aborted).toBe(false);
    expect(streaming.signal.reason).toBe("gone");
  });
  it("close aborts the transport without counting as a timeout", () => {
    const scope = new AttemptScope(undefined, 1_000);
    scope.close();
    expect(scope.signal.aborted).toBe(true);
    expect(scope.timedOut).toBe(false);
  });
});
