import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./support/emulator-fixture.js";
import { startGatedCreateProxy } from "./support/gated-create-proxy.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// Shutdown waits for the hooks still running (an acquire reads its create's answer until
// shutdown's time is up), but the sandboxes of the leases the host holds must not wait behind
// them: the host SIGTERMs the worker 10 s after `shutdown`, whatever is still running then.

const fixture = useTestEmulator();

describe("shutdown while a hook is still running", () => {
  it("deletes the held leases' sandboxes without waiting for that hook", async () => {
    const proxy = await startGatedCreateProxy(fixture.emulator);
    try {
      const t = await pluginUnderTest(fixture.emulator);
      const held = await t.harness.acquireLease({ ...t.base, runId: "run-held" });
      const before = fixture.emulator.sandboxes().length;
      const acquiring = caught(
        t.harness.acquireLease({
          ...t.base,
          config: { ...t.base.config, apiUrl: proxy.url },
          runId: "run-pending",
        }),
      );
      await proxy.createArrived;

      const stopping = t.plugin.definition.onShutdown!();
      // Still within shutdown's time, with the create unanswered: the held sandbox is gone.
      await expect
        .poll(() => fixture.sandboxStatus(held.providerLeaseId), { timeout: 5_000 })
        .toBe("destroyed");
      proxy.release();
      await stopping;

      expect((await acquiring).code).toBe("ERR_CREATEOS_SHUTTING_DOWN");
      expect(
        fixture.emulator
          .sandboxes()
          .slice(before)
          .map((sandbox) => sandbox.status),
      ).toEqual(["destroyed"]);
      expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([]);
    } finally {
      proxy.release();
      await proxy.close();
    }
  });
});
