import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { isLeaseRevoked, leaseRevoked, revokedEpoch } from "./lease-revocation.js";

describe("a server revoke's revocationEpoch", () => {
  it("above the authenticated epoch: the lease is revoked at it", () => {
    expect(revokedEpoch(3, 2)).toBe(3);
    expect(revokedEpoch(1, 0)).toBe(1);
  });

  it.each([
    [2, "does not advance the authenticated 2"],
    [1, "does not advance the authenticated 2"],
    [undefined, "is not a non-negative integer"],
    [-1, "is not a non-negative integer"],
    [2.5, "is not a non-negative integer"],
    ["3", "is not a non-negative integer"],
  ])("%s against 2: a bad frame (ERR_RUNNER_DURABLE_FRAME_INVALID, reason revoke)", (value, says) => {
    const error = caughtSync(() => revokedEpoch(value, 2));
    expect(error.code).toBe("ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(error.details).toEqual({ reason: "revoke" });
    expect(error.message).toContain(says);
  });

  it("the outcome is coded and told apart from failures", () => {
    const outcome = leaseRevoked(3);
    expect(outcome.code).toBe("ERR_RUNNER_DURABLE_LEASE_REVOKED");
    expect(outcome.details).toEqual({ revocationEpoch: 3 });
    expect(isLeaseRevoked(outcome)).toBe(true);
    expect(isLeaseRevoked(caughtSync(() => revokedEpoch(2, 2)))).toBe(false);
  });
});
