import { describe, expect, it } from "vitest";
import { TEST_DURABLE_IDENTITY } from "../../../test/helpers/durable-identity.js";
import { initialDurableState } from "./durable-state.js";
import {
  readTerminalDelivery,
  withRevokedLifecycle,
  withTerminalDeliveryAcked,
  withTerminalDeliveryPending,
} from "./terminal-delivery.js";

const base = initialDurableState(TEST_DURABLE_IDENTITY, "v", "d");
const suspend = { commandId: "suspend", controllerSeq: 4, type: "runner.suspend" };

describe("the terminal delivery fence", () => {
  it("names the end and the lifecycle it leaves, in upstream's shape", () => {
    expect(withTerminalDeliveryPending(base, suspend).pendingTerminalDelivery).toEqual({
      commandId: "suspend",
      controllerSeq: 4,
      commandType: "runner.suspend",
      lifecycle: "suspended",
    });
    expect(
      withTerminalDeliveryPending(base, { ...suspend, type: "runner.shutdown" }).pendingTerminalDelivery,
    ).toMatchObject({ lifecycle: "stopped" });
  });

  it("is cleared by the acknowledgement of the result it names, and only that one", () => {
    const fenced = withTerminalDeliveryPending(base, suspend);
    expect(withTerminalDeliveryAcked(fenced, "suspend").pendingTerminalDelivery).toBeNull();
    expect(withTerminalDeliveryAcked(fenced, "other")).toBe(fenced);
    expect(withTerminalDeliveryAcked(base, "suspend")).toBe(base);
  });

  it("is not kept under a revocation that ended the run first", () => {
    const revoked = withRevokedLifecycle({
      ...withTerminalDeliveryPending(base, suspend),
      lifecycle: "ready",
      recoverableFailure: "earlier",
    });
    expect(revoked).toMatchObject({
      lifecycle: "revoked",
      recoverableFailure: null,
      pendingTerminalDelivery: null,
    });
    // The end's result journalled after the revocation: no fence either.
    expect(withTerminalDeliveryPending(revoked, suspend)).toBe(revoked);
  });

  it("reads absent or null as none, the fence as itself, and refuses anything else", () => {
    expect(readTerminalDelivery(undefined)).toEqual({ ok: true, fence: null });
    expect(readTerminalDelivery(null)).toEqual({ ok: true, fence: null });
    const fence = withTerminalDeliveryPending(base, suspend).pendingTerminalDelivery;
    expect(readTerminalDelivery(JSON.parse(JSON.stringify(fence)))).toEqual({ ok: true, fence });
    for (const bad of [1, "x", [], { ...fence, controllerSeq: "4" }, { ...fence, lifecycle: "ready" }]) {
      expect(readTerminalDelivery(bad)).toMatchObject({ ok: false });
    }
  });
});
