import { describe, expect, it } from "vitest";
import { TEST_DURABLE_IDENTITY } from "../../../test/helpers/durable-identity.js";
import {
  commandResult,
  INDETERMINATE_MESSAGE,
  recoverDurableState,
  withCommandRecord,
} from "./command-journal.js";
import { type DurableState, initialDurableState } from "./durable-state.js";
import { endStands, recordedStreamEnd, redelivers, reopenedState } from "./stream-end.js";
import { withTerminalDeliveryAcked, withTerminalDeliveryPending } from "./terminal-delivery.js";

const base = initialDurableState(TEST_DURABLE_IDENTITY, "v", "d");

/**
 * `state` with the command journalled `done` (its result `status`) or `pending`; an end's delivery
 * pending (fenced) with its result, as `CommandApplier` fences it (a refusal too: read, not trusted).
 */
function journalled(
  state: DurableState,
  command: { commandId: string; controllerSeq: number; type: string },
  status: "completed" | "rejected" | "pending",
): DurableState {
  const result = status === "pending" ? null : commandResult(command, status, "m", null);
  const fenced =
    command.type.startsWith("runner.s") && status !== "pending"
      ? withTerminalDeliveryPending(state, command)
      : state;
  return withCommandRecord(fenced, {
    ...command,
    fingerprint: "f",
    status: status === "pending" ? "pending" : "done",
    result,
  });
}

const prepare = { commandId: "prepare", controllerSeq: 1, type: "run.prepare" };
const stop = { commandId: "stop", controllerSeq: 2, type: "runner.shutdown" };
const suspend = { commandId: "suspend", controllerSeq: 2, type: "runner.suspend" };

describe("the end of the stream a journal records", () => {
  it("is its last command, a shutdown or suspension applied, with the result as journalled", () => {
    const stopped = journalled(journalled(base, prepare, "completed"), stop, "completed");
    expect(recordedStreamEnd(stopped)).toEqual({
      ...stop,
      result: stopped.processedCommands.stop?.result,
    });
    expect(recordedStreamEnd(journalled(base, suspend, "completed"))).toMatchObject({
      type: "runner.suspend",
    });
  });

  it("is none when a command came after it, it was refused, or it is indeterminate", () => {
    const later = { commandId: "later", controllerSeq: 3, type: "runner.drain" };
    expect(recordedStreamEnd(journalled(journalled(base, stop, "completed"), later, "completed"))).toBeNull();
    expect(recordedStreamEnd(journalled(base, stop, "rejected"))).toBeNull();
    // Pending when the runner died: the server has no result, and redelivers it.
    expect(recordedStreamEnd(recoverDurableState(journalled(base, stop, "pending")).state)).toBeNull();
    expect(recordedStreamEnd(journalled(base, prepare, "completed"))).toBeNull();
    expect(recordedStreamEnd(base)).toBeNull();
  });

  it("is an end replayed as indeterminate and fenced as its result was sent (its runner killed before the ack)", () => {
    const replayed = withTerminalDeliveryPending(
      recoverDurableState(journalled(base, stop, "pending")).state,
      stop,
    );
    expect(recordedStreamEnd(replayed)).toEqual({
      ...stop,
      result: commandResult(stop, "indeterminate", INDETERMINATE_MESSAGE, null),
    });
  });

  it("is none once its result was acknowledged (the fence cleared), or in a state without the fence", () => {
    const stopped = journalled(base, stop, "completed");
    expect(recordedStreamEnd(withTerminalDeliveryAcked(stopped, "stop"))).toBeNull();
    // A state file written before the fence was kept: read as none.
    expect(recordedStreamEnd({ ...stopped, pendingTerminalDelivery: null })).toBeNull();
  });

  it("is none when the fence names another command than the journal's last", () => {
    const stopped = journalled(base, stop, "completed");
    const elsewhere = {
      ...stopped,
      pendingTerminalDelivery: { ...stopped.pendingTerminalDelivery!, commandId: "x" },
    };
    expect(recordedStreamEnd(elsewhere)).toBeNull();
  });

  it("stands unless the welcome brings a command after it", () => {
    const end = recordedStreamEnd(journalled(base, stop, "completed"));
    if (end === null) throw new Error("the end is recorded");
    expect(endStands(end, [])).toBe(true);
    expect(endStands(end, [{ ...stop }])).toBe(true);
    expect(endStands(end, [{ commandId: "older", controllerSeq: 1 }, "malformed", null])).toBe(true);
    expect(endStands(end, [{ commandId: "next", controllerSeq: 3 }])).toBe(false);
  });

  it("is redelivered when a pending command names its id", () => {
    expect(redelivers([{ commandId: "stop" }], "stop")).toBe(true);
    expect(redelivers([{ commandId: "other" }, null, "stop"], "stop")).toBe(false);
  });
});

describe("a recovered state as a relaunch opens it", () => {
  it("keeps a recorded end's lifecycle, clears a fence that cannot stand, and is otherwise connecting", () => {
    const suspended = { ...journalled(base, suspend, "completed"), lifecycle: "suspended" as const };
    expect(reopenedState({ ...suspended, lifecycle: "recoverable_failure" })).toEqual(suspended);
    // A runner failed while a shutdown was applied, the shutdown completing after: the end stands,
    // and the failure is no longer the run's (its summary stays in the diagnostics).
    const failedThenStopped = {
      ...journalled(base, stop, "completed"),
      lifecycle: "recoverable_failure" as const,
      recoverableFailure: "ERR_RUNNER_DURABLE_RECONNECT_DEADLINE: gone",
      diagnostics: ["ERR_RUNNER_DURABLE_RECONNECT_DEADLINE: gone"],
    };
    expect(reopenedState(failedThenStopped)).toEqual({
      ...failedThenStopped,
      lifecycle: "stopped",
      recoverableFailure: null,
    });
    // A command journalled behind the end: the server held the end's result when it sent it.
    const later = { commandId: "later", controllerSeq: 3, type: "runner.drain" };
    const behind = journalled(suspended, later, "completed");
    expect(reopenedState(behind)).toEqual({
      ...behind,
      lifecycle: "connecting",
      pendingTerminalDelivery: null,
    });
    expect(reopenedState({ ...base, lifecycle: "ready" })).toEqual(base);
  });
});
