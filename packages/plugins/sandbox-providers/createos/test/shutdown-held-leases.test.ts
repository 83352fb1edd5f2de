import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./support/emulator-fixture.js";
import { hostReusable } from "./support/plugin-harness.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// The host stops a worker (disable, uninstall, upgrade, server stop) without releasing the
// leases it holds, and a stopped plugin can no longer be asked to: shutdown ends them itself.

const fixture = useTestEmulator();

describe("shutdown ends the sandboxes of the leases the host still holds", () => {
  it("deletes held leases (one running a command) and keeps the one given back paused", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true });
    const acquired = await t.harness.acquireLease({ ...t.base, runId: "run-held" });
    const busy = await t.harness.acquireLease({ ...t.base, runId: "run-busy" });
    const paused = await t.harness.acquireLease({ ...t.base, runId: "run-paused" });
    await t.harness.releaseLease({
      ...t.base,
      providerLeaseId: paused.providerLeaseId,
      leaseMetadata: hostReusable(paused.metadata!),
    });
    expect(fixture.sandboxStatus(paused.providerLeaseId)).toBe("paused");
    const running = caught(
      t.harness.execute({ ...t.lease(busy), command: "/bin/sh", args: ["-c", "echo up; sleep 30"] }),
    );
    await expect.poll(() => t.log.some((entry) => entry.chunk === "up\n"), { timeout: 15_000 }).toBe(true);

    await t.plugin.definition.onShutdown!();

    expect((await running).code).toBe("ERR_CREATEOS_CANCELLED");
    for (const id of [acquired.providerLeaseId, busy.providerLeaseId]) {
      expect(fixture.sandboxStatus(id), String(id)).toBe("destroyed");
    }
    // Given back for reuse: the host's to resume or destroy.
    expect(fixture.sandboxStatus(paused.providerLeaseId)).toBe("paused");
    expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([]);
  });

  it("a resumed lease is held again; a destroyed one is not deleted twice", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-reuse" });
    const given = { ...t.base, providerLeaseId: lease.providerLeaseId, leaseMetadata: lease.metadata! };
    await t.harness.releaseLease({ ...given, leaseMetadata: hostReusable(lease.metadata!) });
    const resumed = await t.harness.resumeLease({ ...given, providerLeaseId: lease.providerLeaseId! });
    expect(resumed.providerLeaseId).toBe(lease.providerLeaseId);
    const ended = await t.harness.acquireLease({ ...t.base, runId: "run-ended" });
    await t.harness.destroyLease({
      ...t.base,
      providerLeaseId: ended.providerLeaseId,
      leaseMetadata: ended.metadata!,
    });
    const deletesBefore = fixture.emulator.requests().filter((r) => r.method === "DELETE").length;

    await t.plugin.definition.onShutdown!();

    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("destroyed");
    const deletes = fixture.emulator
      .requests()
      .filter((r) => r.method === "DELETE")
      .slice(deletesBefore);
    expect(deletes.map((r) => r.path)).toEqual([`/v1/sandboxes/${lease.providerLeaseId}`]);
  });

  it("a delete that fails at shutdown is told to the host's log, and the others still end", async () => {
    const t = await pluginUnderTest(fixture.emulator);
    const first = await t.harness.acquireLease({ ...t.base, runId: "run-a" });
    const second = await t.harness.acquireLease({ ...t.base, runId: "run-b" });
    fixture.emulator.faults.set({
      faults: [
        { kind: "http-status", route: "sandbox.delete", status: 403, sandboxId: first.providerLeaseId! },
      ],
    });

    await t.plugin.definition.onShutdown!();

    expect(fixture.sandboxStatus(second.providerLeaseId)).toBe("destroyed");
    expect(fixture.sandboxStatus(first.providerLeaseId)).toBe("running");
    const warnings = t.harness.logs.filter((entry) => entry.level === "warn");
    expect(warnings.map((entry) => entry.message)).toEqual([
      `CreateOS sandbox ${first.providerLeaseId} could not be ended during shutdown; it may still be running and billing. Delete it in CreateOS.`,
    ]);
  });
});
