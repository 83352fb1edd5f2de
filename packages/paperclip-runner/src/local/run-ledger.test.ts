import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { memoryStateStore } from "../state/state-store.js";
import { OUTPUT_HIGH_WATER_LINES, RunLedger } from "./run-ledger.js";

describe("RunLedger backpressure", () => {
  it("signals a backlog once the controller stops taking lines, and its end once they are written", async () => {
    let release: () => void = () => undefined;
    const written: string[] = [];
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk.toString("utf8"));
        release = callback;
      },
    });
    const signals: boolean[] = [];
    const ledger = new RunLedger(memoryStateStore({ runId: "r", sessionId: "s", runnerId: "n" }), stdout, {
      onBacklog: (backlogged) => signals.push(backlogged),
      fail: (error) => {
        throw error;
      },
    });
    ledger.emit("item.delta", {});
    const first = ledger.commit();
    // The controller holds the first write: everything after it queues up.
    await new Promise((resolve) => setImmediate(resolve));
    for (let index = 1; index < OUTPUT_HIGH_WATER_LINES; index += 1) ledger.emit("item.delta", { index });
    expect(signals).toEqual([]);
    ledger.emit("item.delta", {});
    expect(signals).toEqual([true]);
    const rest = ledger.commit();
    release();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await rest;
    expect(signals).toEqual([true, false]);
    expect(written.join("").trim().split("\n")).toHaveLength(OUTPUT_HIGH_WATER_LINES + 1);
  });
});
