import { PaperclipError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { TEST_DURABLE_IDENTITY } from "../../../test/helpers/durable-identity.js";
import { initialDurableState } from "./durable-state.js";
import { parseDurableState } from "./parse-durable-state.js";

const identity = TEST_DURABLE_IDENTITY;
const event = { sourceSeq: 1, sourceEventId: "event_1", eventType: "turn.started", payload: {} };
const entryFields = {
  sourceSeq: 1,
  sourceEventId: "event_1",
  eventType: "turn.started",
  priority: 0,
  bytes: 10,
};

const stateWith = (outbox: unknown[]): string =>
  JSON.stringify({ ...initialDurableState(identity, "0.3.0", "sha256:0"), nextSourceSeq: 2, outbox });

function refusal(text: string): PaperclipError {
  try {
    parseDurableState(text, identity);
  } catch (error) {
    if (error instanceof PaperclipError) return error;
  }
  throw new Error("the state was accepted");
}

describe("parseDurableState's outbox", () => {
  it("keeps an entry holding its PRP event as it is", () => {
    const state = parseDurableState(stateWith([{ ...entryFields, event }]), identity);
    expect(state.outbox).toEqual([{ ...entryFields, event }]);
  });

  it("takes the event out of an entry an earlier release wrote as a whole event message", () => {
    const envelope = { protocol: "paperclip.runner", version: 1, kind: "event", payload: event };
    const state = parseDurableState(stateWith([{ ...entryFields, envelope }]), identity);
    expect(state.outbox).toEqual([{ ...entryFields, event }]);
  });

  it.each([
    ["no event", { ...entryFields }],
    ["an envelope without a payload", { ...entryFields, envelope: { kind: "event" } }],
    ["no sequence number", { event }],
  ])("refuses an entry with %s as ERR_RUNNER_STATE_CORRUPT", (_case, entry) => {
    const error = refusal(stateWith([entry]));
    expect(error.code).toBe("ERR_RUNNER_STATE_CORRUPT");
    expect(error.message).toBe("durable state file is not valid: an outbox entry is malformed");
  });
});
