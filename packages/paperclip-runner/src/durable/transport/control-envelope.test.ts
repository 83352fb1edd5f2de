import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { TEST_DURABLE_IDENTITY } from "../../../test/helpers/durable-identity.js";
import { checkControlEnvelope } from "./control-envelope.js";

const expected = {
  identity: TEST_DURABLE_IDENTITY,
  version: 2,
  connectionId: "connection_1",
  leaseId: "connection_lease_1",
};

/** An `ack` as the server stamps it for this connection. */
const ack = (): Record<string, unknown> => ({
  protocol: "paperclip.runner",
  version: 2,
  envelopeId: "ack_0",
  kind: "ack",
  ...TEST_DURABLE_IDENTITY,
  connectionId: "connection_1",
  connectionLeaseId: "connection_lease_1",
  sentAt: "2026-12-06T00:00:00.000Z",
  payload: { ackedSourceSeq: 0 },
});

describe("the envelope of a server message", () => {
  it("names this connection, its lease, the run and the version: taken", () => {
    expect(() => checkControlEnvelope(ack(), expected)).not.toThrow();
  });

  it.each([
    ["connectionLeaseId", "connection_lease_2"],
    ["connectionId", "connection_2"],
    ["runId", "another-run"],
    ["turnId", "another-turn"],
    ["version", 1],
    ["protocol", "paperclip.other"],
    ["connectionLeaseId", undefined],
    ["runnerInstanceId", undefined],
  ])("naming another (or no) %s: refused (ERR_RUNNER_DURABLE_FRAME_INVALID)", (field, value) => {
    const message = { ...ack(), [field]: value };
    if (value === undefined) delete message[field];
    const error = caughtSync(() => checkControlEnvelope(message, expected));
    expect(error.code).toBe("ERR_RUNNER_DURABLE_FRAME_INVALID");
    expect(error.details).toEqual({ reason: "envelope" });
    expect(error.message).toBe(
      `bad secure frame: the server's ack is not addressed to this connection (${field})`,
    );
  });

  it("names every field that differs, and never echoes a kind that is not a plain name", () => {
    const message = { ...ack(), kind: "x".repeat(200), runId: "r", connectionId: "c" };
    expect(caughtSync(() => checkControlEnvelope(message, expected)).message).toBe(
      "bad secure frame: the server's message is not addressed to this connection (runId, connectionId)",
    );
  });
});
