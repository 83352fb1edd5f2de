import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./support/emulator-fixture.js";
import { requestLine, startGatedProxy } from "./support/gated-proxy.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// Shutdown leaves a lease a release or destroy is ending to it (a release for reuse pauses its
// sandbox for the host). When that delete fails during shutdown, the host's own retry needs a
// worker it no longer has (after an uninstall, none ever comes): shutdown tries once more.

const fixture = useTestEmulator();

describe("shutdown while a release's delete is failing", () => {
  it("deletes the sandbox once the release has failed to", async () => {
    const proxy = await startGatedProxy(fixture.emulator, (req) => requestLine(req).method === "DELETE");
    try {
      const t = await pluginUnderTest(proxy);
      const lease = await t.harness.acquireLease({ ...t.base, runId: "run-released" });
      const sandboxId = lease.providerLeaseId!;
      fixture.emulator.faults.set({
        faults: [{ kind: "http-status", route: "sandbox.delete", status: 403, times: 1, sandboxId }],
      });
      const releasing = caught(
        t.harness.releaseLease({ ...t.base, providerLeaseId: sandboxId, leaseMetadata: lease.metadata! }),
      );
      await proxy.arrived;

      const stopping = t.plugin.definition.onShutdown!();
      // Shutdown has read its held leases (only microtasks stand between it and that read).
      await new Promise((resolve) => setImmediate(resolve));
      proxy.release();
      await stopping;

      expect((await releasing).code).toBe("ERR_CREATEOS_SANDBOX_NOT_ENDED");
      expect(fixture.sandboxStatus(sandboxId)).toBe("destroyed");
      expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([
        expect.objectContaining({ meta: expect.objectContaining({ sandboxId, operation: "release" }) }),
      ]);
    } finally {
      proxy.release();
      await proxy.close();
    }
  });
});
