import { beforeAll } from "vitest";
import { diffEventStreams, normaliseEvents } from "./normalise-events.js";
import { runCodexScenario, type ScenarioKind, type ScenarioOutcome } from "./run-scenario.js";
import { OUR_RUNNER_BIN, resolveCodexToolchain } from "./toolchain.js";

export interface SideBySide {
  readonly upstream: ScenarioOutcome;
  readonly ours: ScenarioOutcome;
}

/** Runs one scenario with upstream's runner, then ours, before the file's first test; the outcomes once they exist. */
export function sideBySideBeforeAll(kind: ScenarioKind): () => SideBySide {
  let outcomes: SideBySide | null = null;
  beforeAll(async () => {
    const tools = await resolveCodexToolchain();
    const upstream = await runCodexScenario(tools, tools.upstreamRunner, kind);
    const ours = await runCodexScenario(tools, OUR_RUNNER_BIN, kind);
    outcomes = { upstream, ours };
  }, 300_000);
  return () => {
    if (outcomes === null) throw new Error(`the ${kind} scenario runs before the first test`);
    return outcomes;
  };
}

/** How ours' committed stream differs from upstream's after normalising ids and times (empty when equal). */
export function streamDifferences({ upstream, ours }: SideBySide): string[] {
  return diffEventStreams(normaliseEvents(upstream.events), normaliseEvents(ours.events));
}
