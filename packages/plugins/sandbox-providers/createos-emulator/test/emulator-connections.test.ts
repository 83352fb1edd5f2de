import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreateosEmulator, startCreateosEmulator } from "../src/index.js";

let emulator: CreateosEmulator;

beforeAll(async () => {
  emulator = await startCreateosEmulator({ rateLimitPerMinute: null, transitionMs: 0 });
});

afterAll(async () => {
  await emulator?.close();
});

/** One GET through `agent`, its body read to the end so a kept-alive socket goes back to the pool. */
function get(agent: Agent, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(`${emulator.url}${path}`, { agent, headers: { "x-api-key": emulator.apiKey } });
    sent.on("error", reject);
    sent.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    sent.end();
  });
}

describe("the request log's connection numbers", () => {
  it("are shared by requests on a kept-alive connection and new for each new connection", async () => {
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const oneShot = new Agent({ keepAlive: false });
    try {
      const before = emulator.requests().length;
      for (let index = 0; index < 3; index += 1) expect(await get(keepAlive, "/v1/sandboxes/none")).toBe(404);
      for (let index = 0; index < 2; index += 1) expect(await get(oneShot, "/v1/sandboxes/none")).toBe(404);
      const numbers = emulator
        .requests()
        .slice(before)
        .map((record) => record.connection);
      const [shared] = numbers;
      expect(numbers.slice(0, 3)).toEqual([shared, shared, shared]);
      expect(new Set(numbers).size).toBe(3);
    } finally {
      keepAlive.destroy();
      oneShot.destroy();
    }
  });
});
