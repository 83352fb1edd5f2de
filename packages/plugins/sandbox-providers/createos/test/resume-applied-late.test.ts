import { setTimeout as delay } from "node:timers/promises";
import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { type TestEmulator, useTestEmulator } from "./support/emulator-fixture.js";
import { pausedLease } from "./support/paused-lease.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// A resume the host's deadline or shutdown cut after it was sent may still be applied by
// CreateOS: a state read of `paused` before its answer proves nothing, nor one just after a
// 2xx (CreateOS may show the old state a while). The emulator holds the resume 2.5 s and then
// applies it; the host's resume limit (1 s after the margin) ends first (its timer is set
// before the request, the emulator's after it), so the order is fixed. One whose answer does
// not come within the lifecycle timeout cannot be waited for: that is told.

const fixture = useTestEmulator();

const resumeOf = (id: string | null) => (request: { route: string; path: string }) =>
  request.route === "sandbox.resume" && request.path.includes(id!);

/** The sandbox's state once no transition is under way (the emulator's take 20 ms). */
async function restingStatus(emulator: TestEmulator, id: string | null): Promise<string | undefined> {
  for (;;) {
    const status = emulator.sandboxStatus(id);
    if (status !== "pausing" && status !== "resuming") return status;
    await delay(10);
  }
}

describe("a resume cut by the host's deadline that CreateOS applies late", () => {
  it("leaves the sandbox paused", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true }, "env-1", {
      hostLimits: { resumeMs: 1_500, marginMs: 500 },
    });
    const { lease, params } = await pausedLease(t, "run-first");
    fixture.emulator.faults.add({ kind: "late-apply", route: "sandbox.resume", delayMs: 2_500 });

    const error = await caught(t.harness.resumeLease(params));
    expect(error.code).toBe("ERR_CREATEOS_HOST_DEADLINE");
    // Answered within the host's limit: the resume is not answered yet, the re-pause goes on.
    expect(fixture.emulator.requests().filter(resumeOf(lease.providerLeaseId))).toMatchObject([
      { status: 0 },
    ]);
    await fixture.emulator.settled();
    await t.plugin.definition.onShutdown!();

    expect(fixture.emulator.faults.fired().map((firing) => firing.kind)).toEqual(["late-apply"]);
    expect(await restingStatus(fixture, lease.providerLeaseId)).toBe("paused");
    expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([]);
  });

  it("leaves the sandbox paused when state reads still show it paused after CreateOS took it", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true }, "env-1", {
      hostLimits: { resumeMs: 1_500, marginMs: 500 },
    });
    const { lease, params } = await pausedLease(t, "run-lagging");
    fixture.emulator.faults.add({ kind: "late-apply", route: "sandbox.resume", delayMs: 2_500 });
    fixture.emulator.faults.add({ kind: "stale-state", route: "sandbox.resume", delayMs: 1_000 });

    expect((await caught(t.harness.resumeLease(params))).code).toBe("ERR_CREATEOS_HOST_DEADLINE");
    await fixture.emulator.settled();
    await t.plugin.definition.onShutdown!();

    expect(fixture.emulator.faults.fired().map((firing) => firing.kind)).toEqual([
      "late-apply",
      "stale-state",
    ]);
    expect(await restingStatus(fixture, lease.providerLeaseId)).toBe("paused");
    expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([]);
  });

  it("is a coded timeout, told to the host's log, when its answer does not come within the lifecycle timeout", async () => {
    // The lifecycle timeout (1 s) ends well before the host's limit (4.5 s): the hook ends on it.
    const t = await pluginUnderTest(
      fixture.emulator,
      { reuseLease: true, lifecycleTimeoutMs: 1_000 },
      "env-1",
      {
        hostLimits: { resumeMs: 5_000, marginMs: 500 },
      },
    );
    const { lease, params } = await pausedLease(t, "run-second");
    fixture.emulator.faults.add({ kind: "late-apply", route: "sandbox.resume", delayMs: 3_000 });

    const error = await caught(t.harness.resumeLease(params));
    expect(error.code).toBe("ERR_CREATEOS_REQUEST_TIMEOUT");
    await fixture.emulator.settled();
    await t.plugin.definition.onShutdown!();
    expect(t.harness.logs.filter((entry) => entry.level === "warn").map((entry) => entry.message)).toEqual([
      `CreateOS sandbox ${lease.providerLeaseId} was sent a resume that got no conclusive answer; CreateOS may still wake it, and it would then run until paused or deleted in CreateOS.`,
    ]);
  });

  it("leaves the sandbox paused when shutdown cut the resume instead", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true });
    const { lease, params } = await pausedLease(t, "run-third");
    fixture.emulator.faults.add({ kind: "late-apply", route: "sandbox.resume", delayMs: 2_500 });

    const resuming = caught(t.harness.resumeLease(params));
    while (!fixture.emulator.requests().some(resumeOf(lease.providerLeaseId))) await delay(10);
    await t.plugin.definition.onShutdown!();
    expect((await resuming).code).toBe("ERR_CREATEOS_SHUTTING_DOWN");
    await fixture.emulator.settled();

    expect(await restingStatus(fixture, lease.providerLeaseId)).toBe("paused");
    expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([]);
  });
});
