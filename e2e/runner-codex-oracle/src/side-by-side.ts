import { beforeAll, expect } from "vitest";
import { unlistedDifferences } from "./accepted-differences.js";
import { commandResults, maskWorkDir } from "./command-results.js";
import { diffEventStreams, normaliseEvents } from "./normalise-events.js";
import {
  type CommittedEvent,
  runCodexScenario,
  type ScenarioKind,
  type ScenarioOutcome,
} from "./run-scenario.js";
import { OUR_RUNNER_BIN, resolveCodexToolchain } from "./toolchain.js";

export interface SideBySide {
  readonly upstream: ScenarioOutcome;
  readonly ours: ScenarioOutcome;
}

/**
 * Awaits both drives, even when one fails, so neither outlives the hook (each removes its own work
 * directory); then the first failure, if any. The drives share nothing (work directory, Codex
 * home, model stub, control plane's port: each its own), and most of a drive is waiting on Codex
 * and the stub, so two at once take about as long as the longer one.
 */
export async function bothDrives<A, B>(first: Promise<A>, second: Promise<B>): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === "rejected") throw a.reason;
  if (b.status === "rejected") throw b.reason;
  return [a.value, b.value];
}

/** Runs one scenario with upstream's runner and ours at once, before the file's first test; the outcomes once they exist. */
export function sideBySideBeforeAll(kind: ScenarioKind): () => SideBySide {
  let outcomes: SideBySide | null = null;
  beforeAll(async () => {
    const tools = await resolveCodexToolchain();
    const [upstream, ours] = await bothDrives(
      runCodexScenario(tools, tools.upstreamRunner, kind),
      runCodexScenario(tools, OUR_RUNNER_BIN, kind),
    );
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

/** The outcomes with the run's work directory (and the stub's port) masked in the events. */
export function maskedOutcomes({ upstream, ours }: SideBySide): SideBySide {
  const mask = (outcome: ScenarioOutcome): ScenarioOutcome => ({
    ...outcome,
    events: outcome.events.map((event) => ({ ...event, payload: maskWorkDir(event.payload) })),
  });
  return { upstream: mask(upstream), ours: mask(ours) };
}

/** Ours' committed stream is upstream's, normalised and masked, but for the `accepted` differences. */
export function expectSameStreams(
  outcomes: SideBySide,
  accepted: Readonly<Record<string, string>> = {},
): void {
  const differences = streamDifferences(maskedOutcomes(outcomes));
  expect(unlistedDifferences(differences, accepted), differences.join("\n")).toEqual([]);
}

/** Ours answered every command the server queued as upstream's, but for the `accepted` differences. */
export function expectSameCommandResults(
  { upstream, ours }: SideBySide,
  accepted: Readonly<Record<string, string>> = {},
): void {
  const differences = diffEventStreams(commandResults(upstream), commandResults(ours));
  expect(unlistedDifferences(differences, accepted), differences.join("\n")).toEqual([]);
}

/** The events up to the last one a resume produced (the next turn's `turn.accepted` excluded). */
export function untilResumed(events: readonly CommittedEvent[]): CommittedEvent[] {
  const reconciled = events.findIndex((event) => event.eventType === "session.reconciled");
  const afterResume = events.findIndex(
    (event, index) => index > reconciled && event.eventType === "turn.accepted",
  );
  return events.slice(0, afterResume < 0 ? events.length : afterResume);
}
