import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { checkRenewalAnswer } from "./renewal-answer.js";

describe("a lease_renewed's previousExpiresAtUnixMs", () => {
  it("names the expiry the runner's lease_renew asked about: taken", () => {
    expect(() => checkRenewalAnswer(1_000, 1_000)).not.toThrow();
  });

  it.each([
    [999, "999"],
    [1_001, "1001"],
    [undefined, "none"],
    ["1000", "none"],
    [Number.POSITIVE_INFINITY, "none"],
  ])("naming %s instead: refused (ERR_RUNNER_DURABLE_FRAME_INVALID)", (previous, named) => {
    const error = caughtSync(() => checkRenewalAnswer(previous, 1_000));
    expect(error.code).toBe("ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(error.details).toEqual({ reason: "lease" });
    expect(error.message).toBe(
      `bad secure frame: the lease_renewed answers a renewal of the lease expiring at ${named}, not the one this runner holds (1000)`,
    );
  });
});
