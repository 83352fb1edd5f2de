import { describe, expect, it } from "vitest";
// @ts-expect-error the scenario is a plain ES module shared with the Node 24 driver
import { SPAWNING_TURNS } from "../driver/subagent-scenario.mjs";
import { runCodexScenario, type ScenarioOutcome } from "../src/run-scenario.js";
import { OUR_RUNNER_BIN, resolveCodexToolchain } from "../src/toolchain.js";

/** Sessions run one after the other: each spawning turn is one more chance of Codex's early order. */
const SESSIONS = 3;

interface Payload {
  readonly code?: string;
  readonly classification?: string;
  readonly receivedThreadId?: string;
}
const payloadOf = (event: { payload: unknown }): Payload => (event.payload ?? {}) as Payload;

/**
 * The children of one session: each spawning turn completed, its child asked the model, and the
 * runner reported the child's progress as descendant diagnostics and saved it as a descendant.
 * Holds whichever order Codex sends the child's first notifications and the spawn's completion in.
 */
function expectChildrenFollowed(outcome: ScenarioOutcome): void {
  const transcript = outcome.transcript.slice(-4_000);
  const failed = [...outcome.steps.values()].filter((step) => step.error !== undefined);
  expect(failed, transcript).toEqual([]);
  expect(outcome.fatal, transcript).toBeUndefined();
  expect(
    outcome.events.filter((event) => event.eventType === "turn.failed"),
    transcript,
  ).toEqual([]);
  const mismatches = outcome.events.filter((event) => payloadOf(event).code === "thread_binding_mismatch");
  expect(mismatches, transcript).toEqual([]);
  expect(outcome.events.filter((event) => event.eventType === "turn.completed")).toHaveLength(SPAWNING_TURNS);
  const started = outcome.events.find((event) => event.eventType === "session.started");
  const rootThreadId = (started?.payload as { providerSessionId?: string } | undefined)?.providerSessionId;
  const children: string[] = [];
  for (let n = 1; n <= SPAWNING_TURNS; n += 1) {
    expect(outcome.steps.get(`spawn-${n}`)?.status, `spawn-${n}`).toBe("completed");
    const child = outcome.steps.get(`spawn-${n}:child`);
    const childThreadId = child?.childThreadId;
    expect(typeof childThreadId, `spawn-${n}: the spawn named its child`).toBe("string");
    expect(childThreadId, `spawn-${n}: the child is another thread`).not.toBe(rootThreadId);
    expect(child?.childRequests, `spawn-${n}: the child asked the model`).toBeGreaterThanOrEqual(1);
    const diagnostics = outcome.events.filter(
      (event) =>
        event.eventType === "harness.diagnostic" &&
        payloadOf(event).code === "provider_notification_identity" &&
        payloadOf(event).classification === "descendant" &&
        payloadOf(event).receivedThreadId === childThreadId,
    );
    expect(diagnostics.length, `spawn-${n}: the child's descendant diagnostics`).toBeGreaterThan(0);
    children.push(String(childThreadId));
  }
  expect(new Set(children).size, "each turn spawned a child of its own").toBe(SPAWNING_TURNS);
  expect(outcome.steps.get("descendants")?.saved, "codex-provider-state.json descendantThreadIds").toEqual(
    [...children].sort(),
  );
  expect(outcome.steps.get("closed")?.error).toBeUndefined();
  expect(outcome.commands.filter((command) => command.status !== "completed")).toEqual([]);
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the close stopped the runner and Codex").toEqual([]);
}

/**
 * How many of the session's children came in Codex's early order, printed, not asserted (Codex
 * chooses). Inferred from what ours commits: in the usual order the child's first note after the
 * spawn's completion is its `thread/status/changed`; in the early order that came before the
 * completion (an unrelated notice) and its `turn/started` was held, so `turn/started` comes first.
 * (Each turn the runner before the holding failed on, 5 of 8 sessions, had that shape.)
 */
function earlyOrders(outcome: ScenarioOutcome): number {
  return Array.from({ length: SPAWNING_TURNS }, (_, index) => outcome.steps.get(`spawn-${index + 1}:child`))
    .map((child) => (child?.descendantMethods as string[] | undefined)?.[0])
    .filter((method) => method === "turn/started").length;
}

/**
 * Ours alone: Codex sometimes sends a spawned child's `turn/started` before the parent's completed
 * `spawnAgent` call that names the child, and upstream's runner then fails the turn
 * (`thread_binding_mismatch`, docs/compatibility.md); which order comes is Codex's, so upstream's
 * runner has no reliable outcome to compare with.
 */
describe("turns whose model spawns a sub-agent (Codex's spawn_agent), the child asking the model beside its parent, real Codex: ours", {
  timeout: 300_000,
}, () => {
  it("completes every turn, reports each child's progress as a descendant's and saves it, and closes clean", async () => {
    const tools = await resolveCodexToolchain();
    for (let session = 1; session <= SESSIONS; session += 1) {
      const outcome = await runCodexScenario(tools, OUR_RUNNER_BIN, "subagent");
      expectChildrenFollowed(outcome);
      console.info(
        `session ${session}: Codex's early order in ${earlyOrders(outcome)} of ${SPAWNING_TURNS} spawns`,
      );
    }
  });
});
