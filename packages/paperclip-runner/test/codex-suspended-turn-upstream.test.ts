import { describe, expect, it } from "vitest";
import { PROVIDER_STATE } from "./helpers/carried-facts.js";
import {
  closeSteps,
  type DriverResult,
  driveCodexRunner,
  openSteps,
  PLAIN_TURN_EVENTS,
  type Step,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import { answer } from "./helpers/command-differential.js";
import { drain } from "./helpers/startup-release-differential.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Differential: upstream's Rust runner and ours on the same steps, the real control plane and the
// fake app-server: the next run resuming a thread whose turn was left in flight (a tool call the
// server's handler holds). Upstream's runner holds the resume's facts and the lost turn's
// reconciliation until after the next turn's acceptance (saved in `pendingEvents`); ours commits
// them at the resume probe. Both orders are pinned: with the real server, upstream's makes the
// next turn's start time out (docs/compatibility.md, "the next run resuming a thread whose turn a
// `runner.suspend` left in flight").
const toolchain = serverToolchainForFile();

/**
 * A turn whose tool call the server holds, ended by `end`; the next run's resume probe, a
 * snapshot, the next turn and the server's close; the held call's answer once the runners are
 * gone. Upstream's suspend answers the call (failed), so the fake's model stalls after it: one
 * that went on would keep the turn's usage, which the next resume replays and upstream's runner
 * fails the next turn on (`turn_binding_mismatch`), depending on whether the kill came first.
 */
const leftInFlight = (work: string, end: Step[]): Step[] => [
  ...openSteps(work),
  { op: "queue", type: "turn.start", payload: { text: "stall-after-tool:report_progress" }, id: "turn-1" },
  { op: "event", type: "semantic_tool.input" },
  ...end,
  { op: "restart" },
  ...drain("resume-probe"),
  { op: "queue", type: "session.snapshot", id: "snapshot" },
  { op: "command", id: "snapshot" },
  { op: "snapshotFile", path: PROVIDER_STATE },
  { op: "queue", type: "turn.start", payload: { text: "after" }, id: "turn-2" },
  { op: "event", type: "run.terminal", count: 2 },
  ...closeSteps,
  { op: "releaseTools" },
];
const SUSPEND: Step[] = [{ op: "queue", type: "runner.suspend", id: "suspend-1" }, { op: "exit" }];
const SIGKILL: Step[] = [{ op: "sigkill" }];

async function bothRunners(steps: (work: string) => Step[]): Promise<[DriverResult, DriverResult]> {
  const drive = (runnerBin?: string) =>
    withWork((work) =>
      driveCodexRunner(toolchain(), work, steps(work), {
        holdTools: true,
        ...(runnerBin === undefined ? {} : { runnerBin }),
      }),
    );
  const ours = await drive();
  const upstream = await drive(upstreamRunner());
  for (const result of [ours, upstream]) {
    expect(result.failure, result.diagnostic.slice(-2_000)).toBeNull();
    expect(result.invalid).toEqual([]);
  }
  return [ours, upstream];
}

/** The events committed from the next run's `runner.reconciled` on, a diagnostic's with its code. */
const afterReconciled = (result: DriverResult): string[] => {
  const types = result.committed.map((event) =>
    event.eventType === "harness.diagnostic" ? `diagnostic:${String(event.payload.code)}` : event.eventType,
  );
  return types.slice(types.indexOf("runner.reconciled"));
};

/** What the provider state held for later after the probe and a snapshot: the records' types. */
const heldAfterProbe = (result: DriverResult): string[] =>
  (
    JSON.parse(result.files.find((file) => file.path === PROVIDER_STATE)?.text ?? "null") as {
      pendingEvents: { eventType: string }[];
    }
  ).pendingEvents.map((record) => record.eventType);

/** Every command answered alike (the answers normalised as the other differentials do). */
function expectSameAnswers(ours: DriverResult, upstream: DriverResult): void {
  const ids = upstream.commands.map((record) => record.commandId);
  expect(ours.commands.map((record) => record.commandId)).toEqual(ids);
  for (const id of ids)
    expect({ id, ...(answer(ours, id) as object) }).toEqual({ id, ...(answer(upstream, id) as object) });
}

/** The resume's facts, then the lost turn's reconciliation and terminal (a completion contract is bound). */
const RESUME_AND_LOST_TURN = [
  "diagnostic:provider_startup_ownership",
  "diagnostic:provider_startup_ownership",
  "session.resumed",
  "semantic_tool.result",
  "session.reconciled",
  "run.result.proposed",
  "turn.failed",
  "run.terminal",
];
const HELD = RESUME_AND_LOST_TURN.map((type) =>
  type.startsWith("diagnostic:") ? "harness.diagnostic" : type,
);
/** Upstream's order: held through the probe and the snapshot, committed after the next turn's acceptance. */
const UPSTREAM_ORDER = ["runner.reconciled", "turn.accepted", ...RESUME_AND_LOST_TURN, ...PLAIN_TURN_EVENTS];
/** Ours: committed at the probe. */
const OURS_ORDER = ["runner.reconciled", ...RESUME_AND_LOST_TURN, "turn.accepted", ...PLAIN_TURN_EVENTS];

describe("the next run resuming a turn left in flight with a tool call pending, against upstream's runner", {
  timeout: 120_000,
}, () => {
  it.each([
    { end: "a runner.suspend", steps: SUSPEND },
    { end: "a SIGKILL (the fake app-server exits with its runner)", steps: SIGKILL },
  ])(
    "after $end: upstream's runner holds the reconciliation until after the next turn's acceptance, ours commits it at the probe",
    async ({ steps }) => {
      const [ours, upstream] = await bothRunners((work) => leftInFlight(work, steps));
      expect(afterReconciled(upstream)).toEqual(UPSTREAM_ORDER);
      expect(heldAfterProbe(upstream)).toEqual(HELD);
      expect(afterReconciled(ours)).toEqual(OURS_ORDER);
      expect(heldAfterProbe(ours)).toEqual([]);
      // The same events before the resume, and every answer alike (the probe's drain `false` for both).
      expect(ours.committed.length).toBe(upstream.committed.length);
      expectSameAnswers(ours, upstream);
    },
  );
});
