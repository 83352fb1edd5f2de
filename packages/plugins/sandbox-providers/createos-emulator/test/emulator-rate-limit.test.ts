import { afterEach, describe, expect, it } from "vitest";
import { type CreateosEmulator, startCreateosEmulator } from "../src/index.js";
import { RawApi } from "./support/raw-api.js";

let emulator: CreateosEmulator | undefined;

afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe("emulator: rate limit per caller IP", () => {
  it("serves the burst, then answers 429 with Retry-After, before checking the key", async () => {
    emulator = await startCreateosEmulator({ rateLimitPerMinute: 6, rateLimitBurst: 3 });
    const api = new RawApi(emulator);
    const statuses = [];
    for (let index = 0; index < 3; index += 1)
      statuses.push((await api.call("GET", "/sandboxes/none")).status);
    expect(statuses).toEqual([404, 404, 404]);
    const limited = await api.call("GET", "/sandboxes/none");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(10);
    const unauthenticated = await new RawApi(emulator, "wrong").call("GET", "/sandboxes/none");
    expect(unauthenticated.status).toBe(429);
    expect(emulator.requests().map((record) => record.status)).toEqual([404, 404, 404, 429, 429]);
  });

  it("defaults to about 300 a minute with a burst of 100", async () => {
    emulator = await startCreateosEmulator();
    const api = new RawApi(emulator);
    const replies = await Promise.all(Array.from({ length: 200 }, () => api.call("GET", "/sandboxes/none")));
    const allowed = replies.filter((reply) => reply.status === 404).length;
    const limited = replies.filter((reply) => reply.status === 429).length;
    // The burst is served in full; refill (5 a second) can only add a few more while the rest waits.
    expect(allowed).toBeGreaterThanOrEqual(100);
    expect(limited).toBeGreaterThanOrEqual(50);
    expect(allowed + limited).toBe(200);
  });

  it("is off with rateLimitPerMinute: null", async () => {
    emulator = await startCreateosEmulator({ rateLimitPerMinute: null });
    const api = new RawApi(emulator);
    const statuses = await Promise.all(Array.from({ length: 150 }, () => api.call("GET", "/sandboxes/none")));
    expect(statuses.every((reply) => reply.status === 404)).toBe(true);
  });
});
