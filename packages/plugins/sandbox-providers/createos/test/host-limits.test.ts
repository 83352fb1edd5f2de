import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { caught } from "@paperclipai/errors/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator } from "./support/emulator-fixture.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// The host abandons an acquire, resume or probe after a fixed time and sends no cancel
// (`src/plugin/host-limits.ts`). Here the limits are cut to 1-2 s and sandboxes take 60 s to
// start, so only a plugin that keeps the host's limit ends in time; `lifecycleTimeoutMs` is 10 s.

let slow: CreateosEmulator;

beforeAll(async () => {
  slow = await startTestEmulator({ transitionMs: 60_000 });
});

afterAll(async () => {
  await slow.close();
});

describe("lifecycle steps end within the host's limits", () => {
  it("an acquire past the host's deadline deletes the sandbox it created and says why", async () => {
    const t = await pluginUnderTest(slow, {}, "env-1", {
      hostLimits: { defaultRpcTimeoutMs: 1_500, marginMs: 500 },
    });
    const before = slow.sandboxes().length;
    const error = await caught(t.harness.acquireLease({ ...t.base, runId: "run-slow" }));
    expect(error.code).toBe("ERR_CREATEOS_HOST_DEADLINE");
    expect(error.message).toBe("CreateOS acquire did not finish within the host's limit (1000 ms).");
    const created = slow.sandboxes().slice(before);
    expect(created).toHaveLength(1);
    expect(created[0]?.status).toBe("destroyed");
  });

  it("a probe past the host's limit reports it and still deletes its sandbox", async () => {
    // 16.5 s less the 15 s cleanup reserve and the 0.5 s margin: 1 s for create and echo.
    const t = await pluginUnderTest(slow, {}, "env-1", { hostLimits: { probeMs: 16_500, marginMs: 500 } });
    const before = slow.sandboxes().length;
    const probe = await t.harness.probe(t.base);
    expect(probe.ok).toBe(false);
    expect(probe.diagnostics).toEqual([
      {
        severity: "error",
        code: "ERR_CREATEOS_HOST_DEADLINE",
        message: "CreateOS probe did not finish within the host's limit (1000 ms).",
      },
    ]);
    const created = slow.sandboxes().slice(before);
    expect(created).toHaveLength(1);
    expect(created[0]?.status).toBe("destroyed");
  });
});
