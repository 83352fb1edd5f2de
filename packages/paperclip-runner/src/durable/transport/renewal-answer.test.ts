import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { checkRenewalAnswer } from "./renewal-answer.js";

const refused = (run: () => void, message: string) => {
  const error = caughtSync(run);
  expect(error.code).toBe("ERR_RUNNER_DURABLE_FRAME_INVALID");
  expect(error.details).toEqual({ reason: "lease" });
  expect(error.message).toBe(`bad secure frame: ${message}`);
};

describe("a lease_renewed's answer to the runner's lease_renew", () => {
  it("names the expiry the runner's lease_renew asked about, renewed to it or later: taken", () => {
    expect(() => checkRenewalAnswer(1_000, 61_000, [1_000])).not.toThrow();
    // The server keeps the later of the stored expiry and a new lease length: the same one is an answer.
    expect(() => checkRenewalAnswer(1_000, 1_000, [1_000])).not.toThrow();
  });

  it.each([
    [999, "999"],
    [1_001, "1001"],
    [undefined, "none"],
    ["1000", "none"],
    [Number.POSITIVE_INFINITY, "none"],
  ])("naming %s instead: refused (ERR_RUNNER_DURABLE_FRAME_INVALID)", (previous, named) => {
    refused(
      () => checkRenewalAnswer(previous, 61_000, [1_000]),
      `the lease_renewed answers a renewal of the lease expiring at ${named}, not the one this runner holds (1000)`,
    );
  });

  it("answering any renewal still unanswered (one asked again, an earlier lease's): taken", () => {
    expect(() => checkRenewalAnswer(1_000, 61_000, [1_000, 1_000])).not.toThrow();
    expect(() => checkRenewalAnswer(1_000, 61_000, [1_000, 61_000])).not.toThrow();
  });

  it("with no renewal asked (even naming the current expiry): refused", () => {
    refused(
      () => checkRenewalAnswer(1_000, 61_000, []),
      "the lease_renewed answers no lease_renew this runner sent on the connection",
    );
  });

  it("renewing to an expiry before the one asked about: refused", () => {
    refused(
      () => checkRenewalAnswer(1_000, 999, [1_000]),
      "the lease_renewed moves the lease's expiry back, from 1000 to 999",
    );
  });
});
