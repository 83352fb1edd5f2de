import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { checkWelcomeLease } from "./lease-binding.js";

const bound = { leaseId: "connection_lease_1", revocationEpoch: 3 };
const continued = { leaseId: "connection_lease_1", revocationEpoch: 3, leaseToken: null };

describe("the welcome of a lease reconnect", () => {
  it("continues the bound lease: same id, same epoch, no new token", () => {
    expect(() => checkWelcomeLease(continued, bound)).not.toThrow();
  });

  it.each([
    ["another lease id", { leaseId: "connection_lease_2" }, "connectionLeaseId"],
    ["a lower epoch", { revocationEpoch: 2 }, "connectionLeaseRevocationEpoch"],
    ["a higher epoch", { revocationEpoch: 4 }, "connectionLeaseRevocationEpoch"],
    ["a new lease token", { leaseToken: "lease_other" }, "connectionLeaseToken"],
  ])("is refused when it names %s (ERR_RUNNER_DURABLE_FRAME_INVALID)", (_name, change, field) => {
    const error = caughtSync(() => checkWelcomeLease({ ...continued, ...change }, bound));
    expect(error.code).toBe("ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(error.details).toEqual({ reason: "lease_binding" });
    expect(error.message).toBe(
      `bad secure frame: the welcome of a lease reconnect does not continue the lease it was authenticated with (${field})`,
    );
  });

  it("binds nothing yet on a ticket handshake: its welcome grants whatever lease it names", () => {
    expect(() =>
      checkWelcomeLease({ leaseId: "connection_lease_9", revocationEpoch: 7, leaseToken: "lease_x" }, null),
    ).not.toThrow();
  });
});
