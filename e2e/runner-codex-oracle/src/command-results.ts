import { type NormalisedEvent, normaliseEvents } from "./normalise-events.js";
import type { ScenarioOutcome } from "./run-scenario.js";

/** A scenario's private work directory (`run-scenario.ts`), and Codex's helper directory in it: different in every run. */
const WORK_DIR = /codex oracle-[A-Za-z0-9]{6}/g;
const CODEX_ARG0_DIR = /codex-arg0[A-Za-z0-9]{6}/g;
/** The model stub's port, free in every run (Codex names the stub's URL in some errors). */
const LOOPBACK_PORT = /127\.0\.0\.1:\d+/g;

/** `value` with the run's work directory (and Codex's helper directory in it) and the stub's port masked. */
export function maskWorkDir(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(WORK_DIR, "<work>")
      .replace(CODEX_ARG0_DIR, "codex-arg0<random>")
      .replace(LOOPBACK_PORT, "127.0.0.1:<port>"),
  ) as unknown;
}

/**
 * The commands the server queued and the runner's results, as events, so the stream comparison
 * applies to them; the scenario's work directory (in a snapshot's `cwd`) is masked.
 */
export function commandResults(outcome: ScenarioOutcome): NormalisedEvent[] {
  return normaliseEvents(
    outcome.commands.map((command) => ({
      eventType: command.type,
      payload: maskWorkDir({ status: command.status, result: command.result }),
    })),
  );
}
