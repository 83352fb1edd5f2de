import { setTimeout as delay } from "node:timers/promises";
import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { STALE_PAUSED_GRACE_MS } from "../src/lease/pause-again.js";
import { type TestEmulator, useTestEmulator } from "./support/emulator-fixture.js";
import { pausedLease } from "./support/paused-lease.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// After CreateOS took a resume (a 2xx), a state read of `paused` may be stale, but only for a
// while (`STALE_PAUSED_GRACE_MS`, 3 s): a sandbox still read `paused` after it is asleep, and
// the re-pause of a failed resume ends there instead of waiting the whole lifecycle timeout
// (here 60 s) with its lease ending. Orders are fixed by margins of whole seconds, nothing is
// measured: a stale read of 1 s ends well within the grace; a resume the host sends again (its
// limit 2.5 s after the margin) outlasts what is left of the grace after the first one's 2.5 s,
// but not a re-pause waiting the lifecycle timeout.

// The margins below are whole seconds of that grace: a different grace needs new ones.
if (STALE_PAUSED_GRACE_MS !== 3_000) throw new Error("these timings are set for a grace of 3 s");

const fixture = useTestEmulator();

/** The sandbox's state once no transition is under way (the emulator's take 50 ms). */
async function restingStatus(emulator: TestEmulator, id: string | null): Promise<string | undefined> {
  for (;;) {
    const status = emulator.sandboxStatus(id);
    if (status !== "pausing" && status !== "resuming") return status;
    await delay(10);
  }
}

const warnings = (t: Awaited<ReturnType<typeof pluginUnderTest>>) =>
  t.harness.logs.filter((entry) => entry.level === "warn");

describe("the re-pause of a resume CreateOS took while its sandbox still reads paused", () => {
  it("waits out a stale read shorter than the grace, then pauses the woken sandbox", async () => {
    const t = await pluginUnderTest(
      fixture.emulator,
      { reuseLease: true, lifecycleTimeoutMs: 60_000 },
      "env-1",
      {
        hostLimits: { resumeMs: 1_000, marginMs: 500 },
      },
    );
    const { lease, params } = await pausedLease(t, "run-stale");
    fixture.emulator.faults.add({ kind: "stale-state", route: "sandbox.resume", delayMs: 1_000 });

    expect((await caught(t.harness.resumeLease(params))).code).toBe("ERR_CREATEOS_HOST_DEADLINE");
    // The stale read ends at 1 s: the sandbox is seen running and paused again.
    while (!fixture.emulator.requests().some((r) => r.route === "sandbox.pause" && r.status === 200)) {
      await delay(20);
    }
    await fixture.emulator.settled();
    await t.plugin.definition.onShutdown!();

    expect(fixture.emulator.faults.fired().map((firing) => firing.kind)).toEqual(["stale-state"]);
    expect(await restingStatus(fixture, lease.providerLeaseId)).toBe("paused");
    expect(warnings(t)).toEqual([]);
  });

  it("ends soon on a sandbox that really stayed paused, so a resume sent again is not held", async () => {
    const t = await pluginUnderTest(
      fixture.emulator,
      { reuseLease: true, lifecycleTimeoutMs: 60_000 },
      "env-1",
      {
        hostLimits: { resumeMs: 3_000, marginMs: 500 },
      },
    );
    const { lease, params } = await pausedLease(t, "run-asleep");
    // CreateOS takes the resume, then the sandbox is paused again behind the plugin's back
    // (within the 1 s its state reads lag, so the plugin never sees it running): it really
    // stays paused.
    fixture.emulator.faults.add({ kind: "stale-state", route: "sandbox.resume", delayMs: 1_000 });
    const first = caught(t.harness.resumeLease(params));
    while (fixture.sandboxStatus(lease.providerLeaseId) === "paused") await delay(10);
    fixture.emulator.setSandboxStatus(lease.providerLeaseId!, "paused");

    expect((await first).code).toBe("ERR_CREATEOS_HOST_DEADLINE");
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("paused");
    const resumed = await t.harness.resumeLease(params);
    expect(resumed).toBeDefined();
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("running");

    await t.plugin.definition.onShutdown!();
    expect(fixture.emulator.faults.fired().map((firing) => firing.kind)).toEqual(["stale-state"]);
    expect(warnings(t)).toEqual([]);
  });
});
