import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { caughtSync } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { FaultBook, readFaultPlanFile, validateFaultPlan } from "./fault-book.js";

const connect = { route: "process.connect" as const, sandboxId: "sbx_1", processId: "proc_1" };

describe("FaultBook", () => {
  it("fires a rule `times` times, after letting `skip` events pass", () => {
    const book = new FaultBook();
    book.set({ faults: [{ kind: "http-status", route: "process.connect", status: 503, times: 2, skip: 1 }] });
    const outcomes = Array.from({ length: 5 }, () => book.arm("http-status", connect)?.fire() ?? false);
    expect(outcomes).toEqual([false, true, true, false, false]);
    expect(book.fired()).toEqual([
      { kind: "http-status", route: "process.connect", rule: 0, sandboxId: "sbx_1", processId: "proc_1" },
      { kind: "http-status", route: "process.connect", rule: 0, sandboxId: "sbx_1", processId: "proc_1" },
    ]);
  });

  it("keeps an `always` rule armed until cleared", () => {
    const book = new FaultBook();
    book.add({ kind: "drop-stream", times: "always" });
    for (let index = 0; index < 20; index += 1) expect(book.arm("drop-stream", connect)?.fire()).toBe(true);
    book.clear();
    expect(book.arm("drop-stream", connect)).toBeUndefined();
  });

  it("only counts a fault that actually fires", () => {
    const book = new FaultBook();
    book.add({ kind: "stall-stream", afterFrames: 5 });
    const armed = book.arm("stall-stream", connect);
    expect(armed).toBeDefined();
    // The connection ended before frame 5: nothing fired, the next connection gets the rule.
    expect(book.arm("stall-stream", connect)?.fire()).toBe(true);
    expect(armed?.fire()).toBe(false);
    expect(book.fired()).toHaveLength(1);
  });

  it("matches the sandbox and process scope", () => {
    const book = new FaultBook();
    book.add({ kind: "omit-exit", processId: "proc_2" });
    expect(book.arm("omit-exit", connect)).toBeUndefined();
    expect(book.arm("omit-exit", { ...connect, processId: "proc_2" })?.fire()).toBe(true);
  });

  it("numbers rules from 0 again after set()", () => {
    const book = new FaultBook();
    book.add({ kind: "omit-exit" });
    book.set({ faults: [{ kind: "drop-stream" }] });
    book.arm("drop-stream", connect)?.fire();
    expect(book.fired()[0]?.rule).toBe(0);
  });
});

describe("validateFaultPlan", () => {
  it.each([
    [{ kind: "explode" }, 0],
    [{ kind: "http-status", route: "nowhere", status: 503 }, 0],
    [{ kind: "http-status", route: "*", status: 99 }, 0],
    [{ kind: "drop-stream", afterFrames: -1 }, 0],
    [{ kind: "drop-stream", times: 1.5 }, 0],
    [{ kind: "drop-stream", mode: "sideways" }, 0],
    [{ kind: "evict" }, 0],
    [{ kind: "slow-stream" }, 0],
    [{ kind: "lose-create-reply", status: 1000 }, 0],
    [{ kind: "lose-create-reply", route: "sandbox.get" }, 0],
    [{ kind: "short-file", bytes: -1 }, 0],
    [{ kind: "late-apply", route: "sandbox.resume" }, 0],
    [{ kind: "late-apply", route: "nowhere", delayMs: 10 }, 0],
    [{ kind: "stale-state", route: "sandbox.delete", delayMs: 10 }, 0],
    [{ kind: "stale-state", route: "sandbox.resume" }, 0],
    ["not an object", 0],
  ])("rejects %j with ERR_CREATEOS_EMULATOR_FAULT_PLAN and the rule index", (fault, rule) => {
    const caught = caughtSync(
      () => validateFaultPlan({ faults: [fault] }),
      "ERR_CREATEOS_EMULATOR_FAULT_PLAN",
    );
    expect(caught.details).toEqual({ rule });
  });

  it("rejects a plan without a faults array", () => {
    expect(() => validateFaultPlan([])).toThrow(/Invalid CreateOS emulator fault plan/);
  });

  it("reads a JSON plan file and rejects one that is not JSON", () => {
    const dir = tempDirForTest("fault-book-");
    const good = join(dir, "good.json");
    const bad = join(dir, "bad.json");
    writeFileSync(good, JSON.stringify({ faults: [{ kind: "evict", mode: "http-410", times: "always" }] }));
    writeFileSync(bad, "{ nope");
    expect(readFaultPlanFile(good).faults).toEqual([{ kind: "evict", mode: "http-410", times: "always" }]);
    expect(() => readFaultPlanFile(bad)).toThrow(
      expect.objectContaining({ code: "ERR_CREATEOS_EMULATOR_FAULT_PLAN" }),
    );
  });
});
