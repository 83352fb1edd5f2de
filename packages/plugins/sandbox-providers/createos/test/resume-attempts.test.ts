import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./support/emulator-fixture.js";
import { pausedLease } from "./support/paused-lease.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// What the attempts of a resume's `POST` may leave behind: one never sent after the host's
// deadline, and one dropped on its own timeout that CreateOS may still carry out.

const fixture = useTestEmulator();

const NO_ANSWER_WARNING = (id: string | null) =>
  `CreateOS sandbox ${id} was sent a resume that got no conclusive answer; CreateOS may still wake it, and it would then run until paused or deleted in CreateOS.`;

describe("a resume's attempts", () => {
  it("are not sent once the host's deadline has passed while they wait for the rate pacer", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true }, "env-1", {
      hostLimits: { resumeMs: 1_500, marginMs: 500 },
    });
    const { lease, params } = await pausedLease(t, "run-paced");
    // A pacer of its own with one request in hand: the state read takes it, the resume then
    // waits 3 s for the next, past the host's limit (1 s after the margin).
    const paced = { ...params, config: { ...params.config, burst: 1, requestsPerMinute: 20 } };

    expect((await caught(t.harness.resumeLease(paced))).code).toBe("ERR_CREATEOS_HOST_DEADLINE");
    await t.plugin.definition.onShutdown!();
    await fixture.emulator.settled();

    const resumes = fixture.emulator
      .requests()
      .filter(
        (request) => request.route === "sandbox.resume" && request.path.includes(lease.providerLeaseId!),
      );
    expect(resumes).toEqual([]);
    expect(fixture.sandboxStatus(lease.providerLeaseId)).toBe("paused");
    expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([]);
  });

  it("are told to the host's log when one timed out, though the last was refused", async () => {
    const t = await pluginUnderTest(fixture.emulator, { reuseLease: true }, "env-1");
    const { lease, params } = await pausedLease(t, "run-retried");
    // The first attempt is held past its 500 ms and then carried out; the retry is refused.
    fixture.emulator.faults.add({ kind: "late-apply", route: "sandbox.resume", delayMs: 3_000 });
    fixture.emulator.faults.add({ kind: "http-status", route: "sandbox.resume", status: 400, skip: 1 });
    const short = { ...params, config: { ...params.config, requestTimeoutMs: 500 } };

    const error = await caught(t.harness.resumeLease(short));
    expect(error.code).toBe("ERR_CREATEOS_HTTP_STATUS");
    await fixture.emulator.settled();
    await t.plugin.definition.onShutdown!();

    expect(fixture.emulator.faults.fired().map((firing) => firing.kind)).toEqual([
      "late-apply",
      "http-status",
    ]);
    expect(t.harness.logs.filter((entry) => entry.level === "warn").map((entry) => entry.message)).toEqual([
      NO_ANSWER_WARNING(lease.providerLeaseId),
    ]);
  });
});
