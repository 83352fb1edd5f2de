import { setTimeout as delay } from "node:timers/promises";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { caught } from "@paperclipai/errors/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator } from "./support/emulator-fixture.js";
import { type GatedCreateProxy, startGatedCreateProxy } from "./support/gated-create-proxy.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// The host abandons an acquire, resume or probe after a fixed time and sends no cancel
// (`src/plugin/host-limits.ts`). Here the limits are cut to 1-2 s and sandboxes take 60 s to
// start, so only a plugin that keeps the host's limit ends in time; `lifecycleTimeoutMs` is 10 s.

let slow: CreateosEmulator;
let fast: CreateosEmulator;

beforeAll(async () => {
  slow = await startTestEmulator({ transitionMs: 60_000 });
  fast = await startTestEmulator();
});

afterAll(async () => {
  await slow.close();
  await fast.close();
});

/**
 * Holds the create's answer until the host's deadline has fired: the plugin's 1 s timer was set
 * before the create was sent, this longer one after it arrived, and Node runs timers in the order
 * they are due. Only the order matters; nothing here measures time.
 */
async function releaseAfterDeadline(proxy: GatedCreateProxy, budgetMs: number): Promise<void> {
  await proxy.createArrived;
  await delay(budgetMs + 200);
  proxy.release();
}

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

  it("an acquire whose create answers after the deadline still deletes that sandbox", async () => {
    const proxy = await startGatedCreateProxy(fast);
    try {
      const t = await pluginUnderTest(proxy, {}, "env-1", {
        hostLimits: { defaultRpcTimeoutMs: 1_500, marginMs: 500 },
      });
      const before = fast.sandboxes().length;
      const released = releaseAfterDeadline(proxy, 1_000);
      const error = await caught(t.harness.acquireLease({ ...t.base, runId: "run-late-create" }));
      await released;
      expect(error.code).toBe("ERR_CREATEOS_HOST_DEADLINE");
      const created = fast.sandboxes().slice(before);
      expect(created).toHaveLength(1);
      // Deleted before the acquire failed, not left behind with an id no one knew.
      expect(created[0]?.status).toBe("destroyed");
    } finally {
      proxy.release();
      await proxy.close();
    }
  });

  it("a probe whose create answers after the deadline still deletes that sandbox", async () => {
    const proxy = await startGatedCreateProxy(fast);
    try {
      const t = await pluginUnderTest(proxy, {}, "env-1", { hostLimits: { probeMs: 16_500, marginMs: 500 } });
      const before = fast.sandboxes().length;
      const released = releaseAfterDeadline(proxy, 1_000);
      const probe = await t.harness.probe(t.base);
      await released;
      expect(probe.ok).toBe(false);
      expect(probe.diagnostics).toEqual([
        {
          severity: "error",
          code: "ERR_CREATEOS_HOST_DEADLINE",
          message: "CreateOS probe did not finish within the host's limit (1000 ms).",
        },
      ]);
      const created = fast.sandboxes().slice(before);
      expect(created).toHaveLength(1);
      expect(created[0]?.status).toBe("destroyed");
    } finally {
      proxy.release();
      await proxy.close();
    }
  });

  it("a sync past the host's limit ends there, its post-upload command stopped, and says why", async () => {
    // The host waits max(timeoutMs, bridgeRequestTimeoutMs) + 30 s for a sync and sends no
    // cancel; here that overhead is cut to 1 s and timeoutMs is 0.5 s (budget 1 s after the margin).
    const t = await pluginUnderTest(fast, {}, "env-1", {
      hostLimits: { rpcOverheadMs: 1_000, marginMs: 500 },
    });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-slow-sync" });
    const error = await caught(
      t.sync.in({
        ...t.lease(lease),
        config: { ...t.base.config, timeoutMs: 500 },
        operations: [
          {
            operationId: "op-slow",
            files: [],
            postUploadCommands: [{ command: "exec sleep 30", timeoutMs: 60_000 }],
          },
        ],
      }),
    );
    expect(error.code).toBe("ERR_CREATEOS_HOST_DEADLINE");
    expect(error.message).toBe("CreateOS sync in did not finish within the host's limit (1000 ms).");
    // The command was stopped and its end confirmed: the lease is still usable.
    expect((await t.harness.execute({ ...t.lease(lease), command: "true" })).exitCode).toBe(0);
    await t.harness.destroyLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
  });

  it("a late create whose delete fails is reported as unended, with the deadline as the cause", async () => {
    const proxy = await startGatedCreateProxy(fast);
    try {
      const t = await pluginUnderTest(proxy, {}, "env-1", {
        hostLimits: { defaultRpcTimeoutMs: 1_500, marginMs: 500 },
      });
      const before = fast.sandboxes().length;
      fast.faults.set({ faults: [{ kind: "http-status", route: "sandbox.delete", status: 403 }] });
      const released = releaseAfterDeadline(proxy, 1_000);
      const error = await caught(t.harness.acquireLease({ ...t.base, runId: "run-late-leak" }));
      await released;
      const leaked = fast.sandboxes().slice(before);
      expect(leaked).toHaveLength(1);
      expect(leaked[0]?.status).not.toBe("destroyed");
      expect(error.code).toBe("ERR_CREATEOS_ACQUIRE_ROLLBACK_FAILED");
      expect(error.details).toMatchObject({
        sandboxId: leaked[0]?.id,
        primary: { code: "ERR_CREATEOS_HOST_DEADLINE" },
        failure: { code: "ERR_CREATEOS_HTTP_STATUS" },
      });
      expect(t.harness.logs).toEqual([
        expect.objectContaining({
          level: "warn",
          meta: expect.objectContaining({ sandboxId: leaked[0]?.id, operation: "acquire rollback" }),
        }),
      ]);
    } finally {
      fast.faults.clear();
      proxy.release();
      await proxy.close();
    }
  });
});
