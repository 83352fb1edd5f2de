import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { challengeCredentialExpiry, checkWelcomeExpiry } from "./credential-expiry.js";

/** A lease the server says ends at 100_000 (its clock), lapsing here at 5_000 (the lease clock). */
const HELD = { atUnixMs: 100_000, lapsesAtMs: 5_000 };

describe("the expiry an auth_challenge states for its credential", () => {
  it("a lease's, counted from the lease held on the lease clock: taken while it has not passed", () => {
    expect(challengeCredentialExpiry(100_000, HELD, 4_999)).toBe(100_000);
    // Later than the one held (a lease_renewed lost with its connection): taken.
    expect(challengeCredentialExpiry(160_000, HELD, 60_000)).toBe(160_000);
    // Earlier than the one held but not passed yet (whatever this machine's wall clock says).
    expect(challengeCredentialExpiry(99_000, HELD, 3_999)).toBe(99_000);
  });

  it.each([
    ["the one held, at its lapse", 100_000, 5_000],
    ["an earlier one, passed", 99_000, 4_000],
  ])("a lease's expiry that has passed (%s): refused before any proof is given", (_name, value, now) => {
    const error = caughtSync(() => challengeCredentialExpiry(value, HELD, now));
    expect(error.code).toBe("ERR_RUNNER_DURABLE_SERVER_PROOF");
    expect(error.details).toEqual({ reason: "credential_expiry" });
    expect(error.message).toBe(
      `durable handshake failed: the auth_challenge names a connection lease that expired at ${value}`,
    );
  });

  it("a ticket's is not read against this machine's clock (no server time is known yet)", () => {
    expect(challengeCredentialExpiry(1, null, 1e12)).toBe(1);
  });

  it.each([undefined, "100000", Number.NaN, Number.POSITIVE_INFINITY])("%s: refused", (value) => {
    const error = caughtSync(() => challengeCredentialExpiry(value, null, 0));
    expect(error.code).toBe("ERR_RUNNER_DURABLE_SERVER_PROOF");
    expect(error.details).toEqual({ reason: "credential_expiry" });
  });
});

describe("a welcome's expiry", () => {
  // Sent at 50_000 on the server's clock, arrived at 1_000 on the lease clock.
  const arrived = 1_000;
  const lease = (atUnixMs: number) => ({ atUnixMs, lapsesAtMs: arrived + (atUnixMs - 50_000) });

  it("a lease that lasts past the frame's sending: taken", () => {
    expect(() => checkWelcomeExpiry(lease(50_001), arrived)).not.toThrow();
  });

  it.each([
    [50_000, "grants a connection lease that had expired (at 50000) when it was sent"],
    [49_000, "grants a connection lease that had expired (at 49000) when it was sent"],
  ])("a lease to %s: refused", (atUnixMs, says) => {
    const error = caughtSync(() => checkWelcomeExpiry(lease(atUnixMs), arrived));
    expect(error.code).toBe("ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(error.details).toEqual({ reason: "welcome" });
    expect(error.message).toBe(`bad secure frame: the welcome ${says}`);
  });
});
