import { describe, expect, it } from "vitest";
import { runtimeRequestId } from "../src/provider/runtime-request-id.js";
import {
  closeSteps,
  codexPrepare,
  type DriverResult,
  driveCodexRunner,
  type Step,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import { answer, command, expectSameAnswers } from "./helpers/command-differential.js";
import { countedScope, countingRandomPreload } from "./helpers/native-stubs.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Differential: the runtime request ids across a provider restart (Codex killed from outside
// between two turns that each ask, the runner starting it again on the thread). Upstream's runner
// runs with `getrandom` made to fill each call with its count (an LD_PRELOAD shim), so the scope
// of each of its ids is found again: a new draw after the restart, the sequence from 1 again.
// Ours draws from Node's generator, out of the shim's reach: its ids are compared for what shows.
const toolchain = serverToolchainForFile();

const steps = (work: string): Step[] => [
  ...command("run.prepare", "prepare", codexPrepare(work)),
  ...command("session.open", "open", { reuse: "same_session" }),
  ...command("turn.start", "ask", { text: "ask" }),
  { op: "event", type: "runtime_request.created" },
  ...command("turn.interrupt", "stop", {}),
  { op: "event", type: "run.terminal" },
  { op: "killProvider" },
  { op: "event", type: "session.resumed" },
  ...command("turn.start", "ask again", { text: "ask" }),
  { op: "event", type: "runtime_request.created", count: 2 },
  ...command("turn.interrupt", "stop again", {}),
  { op: "event", type: "run.terminal", count: 2 },
  ...closeSteps,
];

const ids = (result: DriverResult): string[] =>
  result.committed
    .filter((event) => event.eventType === "runtime_request.created")
    .map((event) => (event.payload.request as { requestId: string }).requestId);

/** The `getrandom` call and sequence an id of the fake's turn and request `srv-1` was formed with. */
function drawnWith(id: string, turnId: string): { call: number; sequence: bigint } | null {
  for (let call = 1; call < 10_000; call += 1)
    for (const sequence of [1n, 2n, 3n])
      if (runtimeRequestId(countedScope(call), turnId, "srv-1", sequence) === id) return { call, sequence };
  return null;
}

describe("runtime request ids across a provider restart against upstream's runner", {
  timeout: 120_000,
}, () => {
  it("draws a new scope and counts from 1 again once Codex is started again, as upstream's", async () => {
    const shim = { LD_PRELOAD: countingRandomPreload() };
    const upstream = await withWork((work) =>
      driveCodexRunner(toolchain(), work, steps(work), { runnerBin: upstreamRunner(), launcherEnv: shim }),
    );
    const ours = await withWork((work) => driveCodexRunner(toolchain(), work, steps(work)));
    for (const result of [ours, upstream]) expect(result.failure).toBeNull();
    // Not compared: the drain's `retainedEventsDrained`. Ours answers it from its outbox, so it
    // depends on whether the server's acknowledgements of the interrupted turn's last events came
    // before the drain (under load they once all had: ours true, upstream's false). The drains'
    // own rules are compared where they are deterministic (codex-drain-and-stop-upstream.test.ts).
    expectSameAnswers(ours, upstream, ["drain"]);
    expect(answer(ours, "drain")).toMatchObject({ status: "completed", result: { status: "completed" } });
    // The fake app-server numbers its requests afresh in each process: `srv-1` in both turns.
    const [before, after] = ids(upstream);
    const first = drawnWith(before as string, "turn-1");
    const second = drawnWith(after as string, "turn-2");
    expect(first).toMatchObject({ sequence: 1n });
    expect(second).toMatchObject({ sequence: 1n });
    expect(second?.call).toBeGreaterThan(first?.call ?? Number.POSITIVE_INFINITY);
    expect(ids(ours)).toHaveLength(2);
    expect(new Set(ids(ours)).size).toBe(2);
  });
});
