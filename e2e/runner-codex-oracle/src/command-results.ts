import { type NormalisedEvent, normaliseEvents } from "./normalise-events.js";
import type { ScenarioOutcome } from "./run-scenario.js";

/** A scenario's private work directory (`run-scenario.ts`), different in every run. */
const WORK_DIR = /codex oracle-[A-Za-z0-9]{6}/g;

/**
 * The commands the server queued and the runner's results, as events, so the stream comparison
 * applies to them; the scenario's work directory (in a snapshot's `cwd`) is masked.
 */
export function commandResults(outcome: ScenarioOutcome): NormalisedEvent[] {
  return normaliseEvents(
    outcome.commands.map((command) => ({
      eventType: command.type,
      payload: JSON.parse(
        JSON.stringify({ status: command.status, result: command.result }).replace(WORK_DIR, "<work>"),
      ) as unknown,
    })),
  );
}
