import { CreateosError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { cancelled, primaryOutcome, unconfirmedTermination } from "./command-failure.js";

const running = { timedOut: false, cancelled: false, cancelReason: undefined };
const gap = new CreateosError("ERR_CREATEOS_SEQUENCE_GAP", "CreateOS process output has a sequence gap.");
const killFailed = new CreateosError(
  "ERR_CREATEOS_CLEANUP_FAILED",
  "CreateOS command cleanup failed; process termination is unconfirmed.",
  { details: { processId: "p1" } },
);

describe("primaryOutcome", () => {
  it("is the error itself, nothing for a timeout, and `cancelled` (with the reason) for a cancel", () => {
    expect(primaryOutcome(gap, running)).toBe(gap);
    expect(primaryOutcome(gap, { ...running, timedOut: true })).toBeUndefined();
    const outcome = primaryOutcome(gap, { ...running, cancelled: true, cancelReason: "user" });
    expect(outcome).toMatchObject({
      code: "ERR_CREATEOS_CANCELLED",
      message: "CreateOS command was cancelled.",
    });
    expect((outcome as Error).cause).toBe("user");
  });
  it("a cancel without a reason has no cause", () => {
    expect("cause" in cancelled(undefined)).toBe(false);
  });
});

describe("unconfirmedTermination", () => {
  it("reads as the failed kill and keeps the primary error as cause and in details", () => {
    const error = unconfirmedTermination(gap, killFailed, false);
    expect(error.message).toBe(killFailed.message);
    expect(error.cause).toBe(gap);
    expect(error.details).toEqual({
      processId: "p1",
      primary: { code: "ERR_CREATEOS_SEQUENCE_GAP", message: gap.message },
      timedOut: false,
      leaseBlocked: true,
    });
  });
  it("after a timeout the kill's error is the cause; an uncoded primary is UNKNOWN", () => {
    expect(unconfirmedTermination(undefined, killFailed, true).details?.primary).toEqual({
      code: "TIMED_OUT",
      message: "The command timed out.",
    });
    expect(unconfirmedTermination(undefined, killFailed, true).cause).toBe(killFailed);
    expect(unconfirmedTermination(new Error("boom"), killFailed, false).details?.primary).toEqual({
      code: "UNKNOWN",
      message: "boom",
    });
  });
});
