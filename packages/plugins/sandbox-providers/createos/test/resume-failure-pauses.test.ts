import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./support/emulator-fixture.js";
import { pausedLease } from "./support/paused-lease.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// A resume that fails after it woke a paused sandbox leaves the lease with the host (it keeps
// a lease whose resume threw) but held by no worker: shutdown deletes only held leases, so the
// woken sandbox would run, and bill, until a later resume (after an uninstall, for ever). Here
// the host's resume limit (1 s after the margin) ends before the sandbox's 2.5 s wake: the
// deadline's timer is set before the resume request, the emulator's after it, so the order
// is fixed and nothing is measured.

const fixture = useTestEmulator({ transitionMs: 2_500 });

describe("a resume that fails after it woke the sandbox", () => {
  it("pauses it again when the host's deadline cut it", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true }, "env-1", {
      hostLimits: { resumeMs: 1_500, marginMs: 500 },
    });
    const { lease, params: given } = await pausedLease(t, "run-first");
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("paused");

    const error = await caught(t.harness.resumeLease(given));
    expect(error.code).toBe("ERR_CREATEOS_HOST_DEADLINE");
    await t.plugin.definition.onShutdown!();

    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("paused");
    expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([]);
  });
});
