import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateosClient } from "../src/client/createos-client.js";
import { execute } from "../src/execute/execute.js";
import { createRunningSandbox, FAST_TUNING, liveLog, startTestEmulator } from "./support/emulator-fixture.js";

let emulator: CreateosEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator({ rateLimitPerMinute: 120, rateLimitBurst: 12 });
});

afterAll(async () => {
  await emulator.close();
});

describe("against the API's rate limit", () => {
  it("concurrent commands all complete exactly when the pacer is set above the limit: 429s slow it down", async () => {
    // Deliberately faster than the server allows, so the server's 429s (with Retry-After) have to do the pacing.
    const client = new CreateosClient({
      apiUrl: emulator.url,
      apiKey: emulator.apiKey,
      rateLimit: { burst: 100, refillPerMinute: 60_000 },
      backoff: { baseMs: 20, capMs: 200, maxRetryAfterMs: 2_000 },
      maxAttempts: 8,
    });
    const sandboxId = await createRunningSandbox(client);
    const runs = Array.from({ length: 4 }, async (_, n) => {
      const log = liveLog();
      const result = await execute(
        client,
        {
          sandboxId,
          command: "/bin/bash",
          args: ["-c", `for i in $(seq 1 20); do echo "run ${n} line $i"; done`],
          onLog: log.onLog,
        },
        { ...FAST_TUNING, reconnectAttempts: 8 },
      );
      return { result, log };
    });
    const outcomes = await Promise.all(runs);
    outcomes.forEach(({ result, log }, n) => {
      const expected = Array.from({ length: 20 }, (_, i) => `run ${n} line ${i + 1}\n`).join("");
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(expected);
      expect(log.text("stdout")).toBe(expected);
    });
    expect(emulator.requests().filter((r) => r.status === 429).length).toBeGreaterThan(0);
  });
});
