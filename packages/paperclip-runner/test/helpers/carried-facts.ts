import { expect } from "vitest";
import type { DriverResult } from "./codex-durable.js";
import { drainAnswers, orderedFacts, STARTUP_FACTS } from "./startup-release-differential.js";

// What the differential tests of held startup facts compare of `codex-provider-state.json`: the
// records its `pendingEvents` lists for the next run (upstream's), and the ones they expect.

export const PROVIDER_STATE = "runner/codex-provider-state.json";

/**
 * The facts each snapshot of the provider state holds for the next run: upstream's record fields,
 * the payload by what it says (pids and launch ids differ per run). `nextProviderEventSeq` beside
 * listed records only: upstream numbers every provider event, ours only the held facts it saves.
 */
export function carriedFacts(result: DriverResult): unknown[] {
  return result.files
    .filter((file) => file.path === PROVIDER_STATE)
    .map((file) => {
      const state = JSON.parse(file.text ?? "null") as {
        pendingEvents: {
          executorEventId: string;
          eventType: string;
          priority: string;
          payload: Record<string, unknown>;
        }[];
        nextProviderEventSeq: number;
      };
      const pending = state.pendingEvents.map(({ executorEventId, eventType, priority, payload }) => {
        const startup = (payload.startup ?? {}) as Record<string, unknown>;
        const command = (startup.command ?? {}) as Record<string, unknown>;
        return [
          executorEventId,
          eventType,
          priority,
          payload.code,
          startup.phase,
          startup.trigger,
          command.commandId,
        ];
      });
      return pending.length === 0 ? { pending } : { pending, next: state.nextProviderEventSeq };
    });
}

/** A session.open's two facts, as the first records. */
export const OPEN_FACTS = [
  [
    "codex_provider_0000000000000001",
    "harness.diagnostic",
    "p0",
    "provider_startup_ownership",
    "intent",
    "ensure",
    "open",
  ],
  [
    "codex_provider_0000000000000002",
    "harness.diagnostic",
    "p0",
    "provider_startup_ownership",
    "spawned",
    "ensure",
    "open",
  ],
];
/** A resume probe's facts (its `session.resumed` last), numbered from `first`. */
export const probeFacts = (probe: string, first: number): unknown[][] => [
  [
    `codex_provider_${String(first).padStart(16, "0")}`,
    "harness.diagnostic",
    "p0",
    "provider_startup_ownership",
    "intent",
    "restore",
    probe,
  ],
  [
    `codex_provider_${String(first + 1).padStart(16, "0")}`,
    "harness.diagnostic",
    "p0",
    "provider_startup_ownership",
    "spawned",
    "restore",
    probe,
  ],
  [
    `codex_provider_${String(first + 2).padStart(16, "0")}`,
    "session.resumed",
    "p0",
    undefined,
    undefined,
    undefined,
    undefined,
  ],
];

/**
 * Ours as the test expects it and as upstream's runner did on the same steps: the order of the
 * committed facts, every drain's answer, and the records each snapshot of the provider state held.
 */
export function expectSameAsUpstream(
  ours: DriverResult,
  upstream: DriverResult,
  expected: { readonly committed: readonly string[]; readonly carried: readonly unknown[] },
): void {
  expect(orderedFacts(ours.committed)).toEqual(expected.committed);
  expect(orderedFacts(ours.committed)).toEqual(orderedFacts(upstream.committed));
  expect(drainAnswers(ours)).toEqual(drainAnswers(upstream));
  expect(carriedFacts(ours)).toEqual(expected.carried);
  expect(carriedFacts(ours)).toEqual(carriedFacts(upstream));
}

/**
 * The committed order when an open's facts were held through one relaunch (a suspend's or a
 * kill's), then a turn: its facts and the resume probe's, with `session.resumed`, after the
 * turn's acceptance.
 */
export const FACTS_AFTER_A_RELAUNCH_AND_A_TURN: readonly string[] = [
  "session.started",
  "runner.reconciled",
  "turn.accepted",
  ...STARTUP_FACTS,
  ...STARTUP_FACTS,
  "session.resumed",
];

/** The same, committed by a later drain's timed commit instead of a turn. */
export const FACTS_AFTER_A_RELAUNCH_AND_A_DRAIN: readonly string[] = [
  "session.started",
  "runner.reconciled",
  ...STARTUP_FACTS,
  ...STARTUP_FACTS,
  "session.resumed",
];

/**
 * The committed order when facts were held through two relaunches (a suspend's or a kill's), then
 * a turn: the open's facts, then each probe's with its `session.resumed`, after the turn's acceptance.
 */
export const FACTS_AFTER_TWO_RELAUNCHES_AND_A_TURN: readonly string[] = [
  "session.started",
  "runner.reconciled",
  "runner.reconciled",
  "turn.accepted",
  ...STARTUP_FACTS,
  ...STARTUP_FACTS,
  "session.resumed",
  ...STARTUP_FACTS,
  "session.resumed",
];
