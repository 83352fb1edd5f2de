import { describe, expect, it } from "vitest";
import { TEST_DURABLE_IDENTITY } from "../../../test/helpers/durable-identity.js";
import {
  admitServerCommand,
  commandResult,
  INDETERMINATE_MESSAGE,
  recoverDurableState,
  withCommandRecord,
} from "./command-journal.js";
import { type DurableState, initialDurableState } from "./durable-state.js";

const identity = TEST_DURABLE_IDENTITY;
const base = initialDurableState(identity, "v", "d");
const command = { commandId: "c1", controllerSeq: 1, type: "turn.start" };
const admit = (
  state: DurableState,
  commandId: string,
  controllerSeq: number,
  fingerprint: string,
  limit = 4096,
) => admitServerCommand(state, { commandId, controllerSeq }, () => fingerprint, limit);

describe("the durable command journal", () => {
  it("answers a redelivered command from the journal, byte for byte, and refuses a reused id", () => {
    const result = commandResult(command, "completed", "command applied", { providerTurnId: "t" });
    const state = withCommandRecord(base, { ...command, fingerprint: "f", status: "done", result });
    expect(admit(state, "c1", 1, "f")).toEqual({ kind: "replay", result });
    expect(admit(state, "c1", 1, "other")).toEqual({ kind: "conflict" });
    expect(admit(state, "c2", 2, "f")).toEqual({ kind: "new" });
    expect(admit(state, "constructor", 2, "f")).toEqual({ kind: "new" });
  });

  it("holds a record journalled before upstream's digest was kept to the fingerprint it took then", () => {
    const result = commandResult(command, "completed", "command applied", null);
    const legacy = withCommandRecord(base, {
      ...command,
      fingerprint: "as-received",
      fingerprintOf: "received",
      status: "done",
      result,
    });
    const fingerprints = { wire: "wire", received: "as-received" };
    const admitted = (state: DurableState, of: typeof fingerprints) =>
      admitServerCommand(state, command, (form) => of[form], 4096);
    expect(admitted(legacy, fingerprints)).toEqual({ kind: "replay", result });
    expect(admitted(legacy, { ...fingerprints, received: "other" })).toEqual({ kind: "conflict" });
    const current = withCommandRecord(base, { ...command, fingerprint: "wire", status: "done", result });
    expect(admitted(current, fingerprints)).toEqual({ kind: "replay", result });
    expect(admitted(current, { ...fingerprints, wire: "other" })).toEqual({ kind: "conflict" });
  });

  it("refuses a new command whose controllerSeq does not follow the last one, before or after it", () => {
    const result = commandResult(command, "completed", "command applied", null);
    const state = withCommandRecord(base, { ...command, fingerprint: "f", status: "done", result });
    expect(admit(state, "c2", 3, "f")).toEqual({
      kind: "not_contiguous",
      expectedControllerSeq: 2,
    });
    expect(admit(state, "c2", 1, "f")).toEqual({
      kind: "not_contiguous",
      expectedControllerSeq: 2,
    });
    expect(admit(base, "c1", 2, "f")).toEqual({
      kind: "not_contiguous",
      expectedControllerSeq: 1,
    });
  });

  it("refuses a new command once the journal holds the history limit, and still replays the ones it holds", () => {
    const result = commandResult(command, "completed", "command applied", null);
    const state = withCommandRecord(base, { ...command, fingerprint: "f", status: "done", result });
    expect(admit(state, "c2", 2, "f", 1)).toEqual({ kind: "history_full" });
    expect(admit(state, "c2", 2, "f", 2)).toEqual({ kind: "new" });
    // A limit below one still lets the first command in, as local mode's does.
    expect(admit(base, "c1", 1, "f", 0)).toEqual({ kind: "new" });
    expect(admit(state, "c1", 1, "f", 1)).toEqual({ kind: "replay", result });
    // The seq is judged first: an out-of-order command is told so, not that the journal is full.
    expect(admit(state, "c3", 3, "f", 1)).toEqual({ kind: "not_contiguous", expectedControllerSeq: 2 });
  });

  it("turns a command pending at a crash into a stored indeterminate result, never to be run again", () => {
    const state = withCommandRecord(base, { ...command, fingerprint: "f", status: "pending", result: null });
    const recovered = recoverDurableState(state);
    expect(recovered.indeterminate).toEqual(["c1"]);
    const expected = commandResult(command, "indeterminate", INDETERMINATE_MESSAGE, null);
    expect(recovered.state.processedCommands.c1).toMatchObject({ status: "indeterminate", result: expected });
    expect(admit(recovered.state, "c1", 1, "f")).toEqual({ kind: "replay", result: expected });
    expect(recovered.state).toMatchObject({
      restarts: 1,
      lifecycle: "connecting",
      lastControllerCommandSeq: 1,
    });
  });
});
