import type { ScenarioOutcome } from "./run-scenario.js";

/**
 * Codex's record of the held tool call ending while the turn is interrupted, as a runner commits
 * it: `item/completed` of the `dynamicToolCall`, failed, committed as `tool.execution.completed`.
 *
 * Upstream's runner, told to interrupt, answers Codex's pending `item/tool/call` with
 * `success:false` ("Paperclip stopped the active provider turn") and sends `turn/interrupt`
 * right behind it. Codex 0.156.1 takes the answer on one task and the interrupt on another: when
 * the answer reaches the turn first, Codex completes the call as failed before it aborts the
 * turn; when the interrupt does, the answer finds no pending call and nothing is recorded. Which
 * comes first is Codex's thread scheduling (the record shows up more on a loaded machine); the
 * two messages leave the runner back to back, so no state the driver can wait for decides it.
 * Ours does not answer an interrupted call, so its stream has no such record (Codex could still
 * write one: its interrupt drops a pending call's response channel before it cancels the turn).
 * Pure.
 */
export function codexCancelledToolCall(
  outcome: ScenarioOutcome,
): ScenarioOutcome["events"][number] | undefined {
  return outcome.events.find((event) => event.eventType === "tool.execution.completed");
}

/**
 * The outcome without that record, nor the usage Codex reports again when it goes on after the
 * failed call (every `usage.reported` of the interrupted turn after its first): to compare two
 * runners when only one Codex wrote it.
 */
export function withoutCodexCancelledToolCall(outcome: ScenarioOutcome): ScenarioOutcome {
  const record = codexCancelledToolCall(outcome);
  if (record === undefined) return outcome;
  const types = outcome.events.map((event) => event.eventType);
  const input = types.indexOf("semantic_tool.input");
  const interrupted = types.indexOf("turn.interrupted");
  const firstUsage = types.indexOf("usage.reported", input);
  const repeatedUsage = (index: number) =>
    types[index] === "usage.reported" && index > firstUsage && index < interrupted;
  return {
    ...outcome,
    events: outcome.events.filter((event, index) => event !== record && !repeatedUsage(index)),
  };
}
