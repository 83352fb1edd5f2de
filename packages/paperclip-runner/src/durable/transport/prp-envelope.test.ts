import { describe, expect, it } from "vitest";
import { TEST_DURABLE_IDENTITY } from "../../../test/helpers/durable-identity.js";
import { durablePrpEvent, eventEnvelope, inConnectionVersion } from "./prp-envelope.js";

const event = durablePrpEvent(TEST_DURABLE_IDENTITY, 1, {
  eventType: "runner.reconciled",
  payload: { outcome: "same_durable_session_resumed" },
  emittedAt: "2026-12-04T00:00:00.000Z",
});

describe("inConnectionVersion", () => {
  it("sends a message made in the connection's version as it is", () => {
    const envelope = eventEnvelope(TEST_DURABLE_IDENTITY, 2, event);
    expect(inConnectionVersion(envelope, 2)).toBe(envelope);
  });

  it("sends a message made before the version was known in the connection's, byte for byte otherwise", () => {
    const ahead = eventEnvelope(TEST_DURABLE_IDENTITY, 2, event);
    const sent = inConnectionVersion(ahead, 1);
    expect(JSON.stringify(sent)).toBe(JSON.stringify(eventEnvelope(TEST_DURABLE_IDENTITY, 1, event)));
    expect(ahead.version).toBe(2);
  });
});
