import type { PaperclipError } from "@paperclipai/errors";
import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { parseRunnerState } from "./parse-runner-state.js";
import { initialRunnerState } from "./runner-state.js";

const binding = { runId: "run-1", sessionId: "s-1", runnerId: "n-1" };
const valid = initialRunnerState(binding);

function thrown(text: string, against = binding): PaperclipError {
  return caughtSync(() => parseRunnerState(text, against));
}

describe("parseRunnerState", () => {
  it("reads back what the daemon writes", () => {
    expect(parseRunnerState(JSON.stringify(valid), binding)).toEqual(valid);
  });

  it("refuses another run's state, naming the fields but not their values", () => {
    const error = thrown(JSON.stringify(valid), { ...binding, runId: "run-2", runnerId: "n-2" });
    expect(error.code).toBe("ERR_RUNNER_STATE_BINDING_MISMATCH");
    expect(error.message).toBe("durable state binding does not match this runner invocation");
    expect(error.details).toEqual({ mismatched: ["runId", "runnerId"] });
  });

  it.each([
    ["not json", "it is not JSON"],
    [JSON.stringify({ ...valid, schema: "v0" }), "its schema is not paperclip-runner/runner-state/v3"],
    [JSON.stringify({ ...valid, binding: null }), "binding is missing"],
    [JSON.stringify({ ...valid, nextEventSeq: 0 }), "nextEventSeq is not a count"],
    [JSON.stringify({ ...valid, ackedSeq: -1 }), "ackedSeq is not a count"],
    [JSON.stringify({ ...valid, outbox: {} }), "outbox is not an array"],
    [JSON.stringify({ ...valid, journal: [] }), "journal is not an object"],
    [
      JSON.stringify({ ...valid, journal: { c1: { commandId: "c2", fingerprint: "f" } } }),
      'journal entry "c1" is malformed',
    ],
    [
      JSON.stringify({ ...valid, journal: { c1: { commandId: "c1", fingerprint: "f", status: "maybe" } } }),
      'journal entry "c1" has an unknown status',
    ],
    [JSON.stringify({ ...valid, run: null }), "run is not an object"],
  ])("refuses a corrupt file: %s", (text, reason) => {
    const error = thrown(text);
    expect(error.code).toBe("ERR_RUNNER_STATE_CORRUPT");
    expect(error.message).toBe(`durable state file is not valid: ${reason}`);
  });
});
