import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { renewedRevocationEpoch, revocationEpoch } from "./revocation-epoch.js";

describe("the lease's revocation epoch", () => {
  it("is a non-negative safe integer in a welcome", () => {
    expect(revocationEpoch("welcome", 0, "welcome")).toBe(0);
    expect(revocationEpoch("welcome", 7, "welcome")).toBe(7);
    for (const bad of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "0", null, undefined]) {
      const error = caughtSync(() => revocationEpoch("welcome", bad, "welcome"));
      expect(error.code).toBe("ERR_RUNNER_DURABLE_FRAME_INVALID");
      expect(error.details).toEqual({ reason: "welcome" });
      expect(error.message).toBe(
        "bad secure frame: the welcome's connectionLeaseRevocationEpoch is not a non-negative integer",
      );
    }
  });

  it("is, in a lease_renewed, the epoch of the lease it renews", () => {
    expect(renewedRevocationEpoch(3, 3)).toBe(3);
    const lower = caughtSync(() => renewedRevocationEpoch(2, 3));
    expect(lower.code).toBe("ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(lower.details).toEqual({ reason: "lease" });
    expect(lower.message).toContain("connectionLeaseRevocationEpoch 2 goes back from the lease's 3");
    expect(caughtSync(() => renewedRevocationEpoch(4, 3)).message).toContain(
      "connectionLeaseRevocationEpoch 4 is not the lease's 3: a renewal cannot advance it",
    );
    for (const bad of [-1, 1.5, "3", undefined]) {
      expect(caughtSync(() => renewedRevocationEpoch(bad, 3)).message).toBe(
        "bad secure frame: the lease_renewed's connectionLeaseRevocationEpoch is not a non-negative integer",
      );
    }
  });
});
