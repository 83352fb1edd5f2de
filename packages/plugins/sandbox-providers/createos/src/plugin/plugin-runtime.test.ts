import { afterEach, describe, expect, it, vi } from "vitest";
import { PluginRuntime } from "./plugin-runtime.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("PluginRuntime cleanup deadlines", () => {
  it("cuts them once shutdown has started, so cleanups end before the host's SIGTERM", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_000_000);
    const runtime = new PluginRuntime({ env: {} });
    const config = runtime.config({ apiUrl: "http://127.0.0.1:1", apiKey: "k", shape: "s-1vcpu-1gb" });
    const tuning = runtime.tuning(config);
    // Before shutdown: unchanged (a rollback delete 15 s, a kill 10 s).
    expect(runtime.cleanupDeadline(15_000)).toBe(1_015_000);
    expect(tuning.cleanupMs?.(10_000)).toBe(10_000);

    await runtime.shutdown();
    // The host waits 10 s after `shutdown`, then SIGTERMs; 1.5 s stay free for the replies.
    expect(runtime.cleanupDeadline(15_000)).toBe(1_008_500);
    vi.setSystemTime(1_004_000);
    expect(tuning.cleanupMs?.(10_000)).toBe(4_500);
    expect(runtime.cleanupDeadline(1_000)).toBe(1_005_000);
    // Past the cap a cleanup still gets a (1 ms) deadline rather than none.
    vi.setSystemTime(1_020_000);
    expect(runtime.cleanupDeadline(15_000)).toBe(1_020_001);
  });
});

describe("PluginRuntime exit signal", () => {
  it("stays open while shutdown still has time, and aborts when that time is up", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    vi.setSystemTime(1_000_000);
    const runtime = new PluginRuntime({ env: {} });
    let finish!: () => void;
    const hook = runtime.hook(() => new Promise<void>((resolve) => (finish = resolve)));
    const stopping = runtime.shutdown();
    expect(runtime.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(8_499);
    expect(runtime.exitSignal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(runtime.exitSignal.reason).toMatchObject({ code: "ERR_CREATEOS_SHUTTING_DOWN" });
    finish();
    await hook;
    await stopping;
  });
});

describe("PluginRuntime shutdown called again", () => {
  it("runs once: a second call waits for the first instead of ending the leases again", async () => {
    const runtime = new PluginRuntime({ env: {} });
    const finishers: Array<() => void> = [];
    const alongside = () => new Promise<void>((resolve) => finishers.push(resolve));
    try {
      const first = runtime.shutdown(alongside);
      let secondDone = false;
      const second = runtime.shutdown(alongside).then(() => {
        secondDone = true;
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(finishers).toHaveLength(1);
      expect(secondDone).toBe(false);
      finishers[0]?.();
      await first;
      await second;
      expect(secondDone).toBe(true);
    } finally {
      for (const finish of finishers) finish();
    }
  });
});
