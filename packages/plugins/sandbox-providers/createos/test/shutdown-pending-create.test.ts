import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./support/emulator-fixture.js";
import { type GatedCreateProxy, startGatedCreateProxy } from "./support/gated-create-proxy.js";
import type { PluginUnderTest } from "./support/plugin-harness.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// The host stops a worker (disable, uninstall, upgrade, server stop) whatever it is doing. A
// sandbox create that CreateOS has already carried out but not yet answered must still be read
// and deleted: cut at shutdown, its sandbox would run on with an id no one ever learnt.

const fixture = useTestEmulator();

/** Shuts the plugin down while the proxy holds a create's answer, then lets the answer through. */
async function shutDownDuringCreate(proxy: GatedCreateProxy, t: PluginUnderTest): Promise<void> {
  await proxy.createArrived;
  const stopping = t.plugin.definition.onShutdown!();
  proxy.release();
  await stopping;
}

async function withProxy(test: (proxy: GatedCreateProxy) => Promise<void>): Promise<void> {
  const proxy = await startGatedCreateProxy(fixture.emulator);
  try {
    await test(proxy);
  } finally {
    proxy.release();
    await proxy.close();
  }
}

describe("shutdown while a sandbox create is unanswered", () => {
  it("an acquire reads the create's answer and deletes that sandbox", async () => {
    await withProxy(async (proxy) => {
      const t = await pluginUnderTest(proxy);
      const before = fixture.emulator.sandboxes().length;
      const acquiring = caught(t.harness.acquireLease({ ...t.base, runId: "run-stopped" }));

      await shutDownDuringCreate(proxy, t);

      expect((await acquiring).code).toBe("ERR_CREATEOS_SHUTTING_DOWN");
      const created = fixture.emulator.sandboxes().slice(before);
      expect(created).toHaveLength(1);
      expect(created[0]?.status).toBe("destroyed");
      expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([]);
    });
  });

  it("a probe reads the create's answer and deletes that sandbox", async () => {
    await withProxy(async (proxy) => {
      const t = await pluginUnderTest(proxy);
      const before = fixture.emulator.sandboxes().length;
      const probing = t.harness.probe(t.base);

      await shutDownDuringCreate(proxy, t);

      const probe = await probing;
      expect(probe.ok).toBe(false);
      expect(probe.diagnostics?.map((entry) => entry.code)).toEqual(["ERR_CREATEOS_SHUTTING_DOWN"]);
      const created = fixture.emulator.sandboxes().slice(before);
      expect(created).toHaveLength(1);
      expect(created[0]?.status).toBe("destroyed");
    });
  });

  it("a create still unanswered when shutdown's time is up is cut and told to the host's log", async () => {
    await withProxy(async (proxy) => {
      // 2 s to the host's SIGTERM: the create is cut 1.5 s before it, its answer never let through.
      const t = await pluginUnderTest(proxy, {}, "env-1", { hostLimits: { shutdownMs: 2_000 } });
      const acquiring = caught(t.harness.acquireLease({ ...t.base, runId: "run-cut" }));
      await proxy.createArrived;

      await t.plugin.definition.onShutdown!();

      expect((await acquiring).code).toBe("ERR_CREATEOS_SHUTTING_DOWN");
      expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([
        expect.objectContaining({
          message:
            "A CreateOS sandbox create was still unanswered when shutdown's time was up; CreateOS may have made a sandbox whose id is unknown. Look for it in CreateOS and delete it.",
        }),
      ]);
    });
  });
});
