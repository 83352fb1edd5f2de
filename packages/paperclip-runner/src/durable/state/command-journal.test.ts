import { describe, expect, it } from "vitest";
import { TEST_DURABLE_IDENTITY } from "../../../test/helpers/durable-identity.js";
import {
  admitServerCommand,
  commandResult,
  INDETERMINATE_MESSAGE,
  recoverDurableState,
  withCommandRecord,
} from "./command-journal.js";
import { initialDurableState } from "./durable-state.js";

const identity = TEST_DURABLE_IDENTITY;
const base = initialDurableState(identity, "v", "d");
const command = { commandId: "c1", controllerSeq: 1, type: "turn.start" };

describe("the durable command journal", () => {
  it("answers a redelivered command from the journal, byte for byte, and refuses a reused id", () => {
    const result = commandResult(command, "completed", "command applied", { providerTurnId: "t" });
    const state = withCommandRecord(base, { ...command, fingerprint: "f", status: "done", result });
    expect(admitServerCommand(state, "c1", 1, "f")).toEqual({ kind: "replay", result });
    expect(admitServerCommand(state, "c1", 1, "other")).toEqual({ kind: "conflict" });
    expect(admitServerCommand(state, "c2", 2, "f")).toEqual({ kind: "new" });
    expect(admitServerCommand(state, "constructor", 2, "f")).toEqual({ kind: "new" });
  });

  it("refuses a new command whose controllerSeq does not follow the last one, before or after it", () => {
    const result = commandResult(command, "completed", "command applied", null);
    const state = withCommandRecord(base, { ...command, fingerprint: "f", status: "done", result });
    expect(admitServerCommand(state, "c2", 3, "f")).toEqual({
      kind: "not_contiguous",
      expectedControllerSeq: 2,
    });
    expect(admitServerCommand(state, "c2", 1, "f")).toEqual({
      kind: "not_contiguous",
      expectedControllerSeq: 2,
    });
    expect(admitServerCommand(base, "c1", 2, "f")).toEqual({
      kind: "not_contiguous",
      expectedControllerSeq: 1,
    });
  });

  it("turns a command pending at a crash into a stored indeterminate result, never to be run again", () => {
    const state = withCommandRecord(base, { ...command, fingerprint: "f", status: "pending", result: null });
    const recovered = recoverDurableState(state);
    expect(recovered.indeterminate).toEqual(["c1"]);
    const expected = commandResult(command, "indeterminate", INDETERMINATE_MESSAGE, null);
    expect(recovered.state.processedCommands.c1).toMatchObject({ status: "indeterminate", result: expected });
    expect(admitServerCommand(recovered.state, "c1", 1, "f")).toEqual({ kind: "replay", result: expected });
    expect(recovered.state).toMatchObject({
      restarts: 1,
      lifecycle: "connecting",
      lastControllerCommandSeq: 1,
    });
  });
});
