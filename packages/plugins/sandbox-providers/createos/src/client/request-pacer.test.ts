import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { PacerRegistry, RequestPacer } from "./request-pacer.js";

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("RequestPacer", () => {
  it("lets a burst through and queues the rest", async () => {
    const time = clock();
    const pacer = new RequestPacer({ burst: 2, refillPerMinute: 60_000 }, time.now);
    await pacer.acquire();
    await pacer.acquire();
    let third = false;
    const pending = pacer.acquire().then(() => (third = true));
    await Promise.resolve();
    expect(third).toBe(false);
    expect(pacer.queued).toBe(1);
    time.advance(1);
    await pending;
    expect(third).toBe(true);
  });

  it("starts queued cleanup calls before queued normal calls", async () => {
    const time = clock();
    const pacer = new RequestPacer({ burst: 1, refillPerMinute: 60_000 }, time.now);
    await pacer.acquire();
    const order: string[] = [];
    const normal = pacer.acquire("normal").then(() => order.push("normal"));
    const cleanup = pacer.acquire("cleanup").then(() => order.push("cleanup"));
    time.advance(1);
    await cleanup;
    time.advance(1);
    await normal;
    expect(order).toEqual(["cleanup", "normal"]);
  });

  it("rejects a queued wait with the abort reason and forgets it", async () => {
    const pacer = new RequestPacer({ burst: 1, refillPerMinute: 1 });
    await pacer.acquire();
    const controller = new AbortController();
    const waiting = pacer.acquire("normal", controller.signal);
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(pacer.queued).toBe(0);
    await expect(pacer.acquire("normal", controller.signal)).rejects.toBe(reason);
  });

  it("holds every start after a 429 until Retry-After has passed", async () => {
    const time = clock();
    const pacer = new RequestPacer({ burst: 10, refillPerMinute: 60_000 }, time.now);
    pacer.observe(429, 30);
    let started = false;
    const pending = pacer.acquire().then(() => (started = true));
    await delay(5);
    expect(started).toBe(false);
    // the block ends at 30 ms; at the halved rate the next token needs 2 ms more
    time.advance(32);
    await pending;
    expect(started).toBe(true);
  });
});

describe("PacerRegistry", () => {
  it("shares one pacer per origin and key", () => {
    const registry = new PacerRegistry();
    const a = registry.get("http://127.0.0.1:1", "k");
    expect(registry.get("http://127.0.0.1:1", "k")).toBe(a);
    expect(registry.get("http://127.0.0.1:1", "other")).not.toBe(a);
    expect(registry.get("http://127.0.0.1:2", "k")).not.toBe(a);
  });
});
