import type { Controller, WireEvent } from "../local-controller.js";
import { runResult } from "../local-controller.js";

export const READY = { ready: { name: "fake" } };
export const RESULT = { result: runResult() };
export const SUCCEEDED = {
  schema: "paperclip.prp.terminal.v1",
  turnTerminalState: "completed",
  runTerminalState: "succeeded",
  reportedWorkDisposition: "done",
};

export function violationOf(controller: Controller): unknown {
  return controller.events().find((event) => event.payload.code === "harness_protocol_violation")?.payload
    .message;
}

export function startTurn(controller: Controller): void {
  controller.send("run.prepare", "c1");
  controller.send("session.open", "c2");
  controller.send("turn.start", "c3", { turnId: "turn-1", text: "hello" });
}

/** The `turn.completed` of `turnId`: the scripted harnesses here name each turn by its command id. */
export function turnCompleted(controller: Controller, turnId: string): Promise<WireEvent> {
  return controller.waitFor((message) =>
    message.kind === "event" &&
    message.event.eventType === "turn.completed" &&
    message.event.turnId === turnId
      ? message.event
      : undefined,
  );
}

export const logsOf = (
  controller: Controller,
): { lines: string[]; retainedBytes: number; droppedLines: number } =>
  controller.event("harness.exited")?.payload.logs as {
    lines: string[];
    retainedBytes: number;
    droppedLines: number;
  };
