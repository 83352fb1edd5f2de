import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./support/emulator-fixture.js";
import { pausedLease } from "./support/paused-lease.js";
import { hostReusable, type PluginUnderTest } from "./support/plugin-harness.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// A lease released for reuse is the host's, its sandbox kept paused. A resume that shutdown
// cuts after it woke that sandbox fails, and the host keeps the lease for a later run: the
// sandbox must be paused again, not left running (and billing) for a worker that may never
// come back (an uninstall); a release that is pausing it finishes, the sandbox kept for the
// host. Transitions take 1.5 s here, so shutdown finds the sandbox resuming or pausing.

const fixture = useTestEmulator({ transitionMs: 1_500 });

/** Resumes the lease, and shuts the plugin down once the resume woke its sandbox: the resume's error. */
async function resumeCutByShutdown(
  t: PluginUnderTest,
  sandboxId: string,
  given: Parameters<PluginUnderTest["harness"]["resumeLease"]>[0],
) {
  const resuming = caught(t.harness.resumeLease(given));
  await expect.poll(() => fixture.sandboxStatus(sandboxId), { timeout: 10_000 }).toBe("resuming");
  await t.plugin.definition.onShutdown!();
  return resuming;
}

describe("shutdown while a reusable lease changes state", () => {
  it("pauses again the sandbox the resume woke", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true });
    const { lease, params: given } = await pausedLease(t, "run-first");
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("paused");
    expect((await resumeCutByShutdown(t, given.providerLeaseId, given)).code).toBe(
      "ERR_CREATEOS_SHUTTING_DOWN",
    );
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("paused");
    expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([]);
  });

  it("tells the host's log when the sandbox the resume woke will not pause again", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true });
    const { lease, params: given } = await pausedLease(t, "run-unpaused");
    fixture.emulator.faults.set({
      faults: [
        { kind: "http-status", route: "sandbox.pause", status: 403, sandboxId: lease.providerLeaseId! },
      ],
    });
    expect((await resumeCutByShutdown(t, given.providerLeaseId, given)).code).toBe(
      "ERR_CREATEOS_SHUTTING_DOWN",
    );
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("running");
    expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([
      expect.objectContaining({
        message: `CreateOS sandbox ${lease.providerLeaseId} was woken by a resume that then failed and could not be paused again; it may still be running.`,
        meta: expect.objectContaining({
          failure: expect.objectContaining({ code: "ERR_CREATEOS_HTTP_STATUS" }),
        }),
      }),
    ]);
  });

  it("lets a release for reuse pause its sandbox, and does not delete it", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-released" });
    const releasing = t.harness.releaseLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId!,
      leaseMetadata: hostReusable(lease.metadata!),
    });
    await expect
      .poll(() => fixture.sandboxStatus(lease.providerLeaseId), { timeout: 10_000 })
      .toBe("pausing");

    await t.plugin.definition.onShutdown!();

    expect(await releasing).toEqual({ providerLeaseId: lease.providerLeaseId, state: "stopped" });
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("paused");
    expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([]);
  });
});
