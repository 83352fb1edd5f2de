import type { CommittedEvent, ScenarioOutcome } from "./run-scenario.js";
import type { SideBySide } from "./side-by-side.js";

const COMMAND_ITEM_EVENTS: ReadonlySet<string> = new Set([
  "tool.execution.started",
  "tool.execution.completed",
]);

function isItemOfCommand(event: CommittedEvent, command: string): boolean {
  if (!COMMAND_ITEM_EVENTS.has(event.eventType)) return false;
  const payload = event.payload as { transport?: unknown; name?: unknown };
  return (
    payload.transport === "process" && typeof payload.name === "string" && payload.name.includes(command)
  );
}

const hasItemOfCommand = (outcome: ScenarioOutcome, command: string) =>
  outcome.events.some((event) => isItemOfCommand(event, command));

const withoutItemsOfCommand = (outcome: ScenarioOutcome, command: string): ScenarioOutcome => ({
  ...outcome,
  events: outcome.events.filter((event) => !isItemOfCommand(event, command)),
});

/**
 * The outcomes with the command execution item of `command` (its `tool.execution.started` and
 * `tool.execution.completed`) left out of both streams when only one of them has it.
 *
 * When Codex 0.156.1's sandbox helper cannot start (the server's profile, on a host without
 * `codex-linux-sandbox`), the command exits 1 at once and the model gets the same output either
 * way, but Codex sends the item (`source: "unifiedExecStartup"`) in some runs only, more often
 * under load. A tap of Codex's own stdout showed it: in a run where upstream's stream had the
 * item and ours had not, only the Codex under upstream's runner had written `item/started` for
 * it. When both or neither stream has the item, the outcomes are returned as they are, so the
 * items are compared whenever they can be. Pure.
 */
export function withCommandStartupItemOnBothOrNeither(outcomes: SideBySide, command: string): SideBySide {
  const { upstream, ours } = outcomes;
  if (hasItemOfCommand(upstream, command) === hasItemOfCommand(ours, command)) return outcomes;
  return { upstream: withoutItemsOfCommand(upstream, command), ours: withoutItemsOfCommand(ours, command) };
}
