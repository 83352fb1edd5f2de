import { describe, expect, it } from "vitest";
import { createLookupGate } from "./lookup-gate.js";

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe("createLookupGate", () => {
  it("runs at most `limit` tasks at once and the rest in order as slots free", async () => {
    const gate = createLookupGate(2);
    const started: number[] = [];
    const releases = [deferred(), deferred(), deferred(), deferred()];
    const runs = releases.map((release, index) =>
      gate(async () => {
        started.push(index);
        await release.promise;
        return index;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    releases[1]!.resolve();
    await runs[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    releases[0]!.resolve();
    releases[2]!.resolve();
    releases[3]!.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it("frees the slot of a task that fails", async () => {
    const gate = createLookupGate(1);
    await expect(gate(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate(async () => "next")).toBe("next");
  });
});
