import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { codexPrepare, serverToolchainForFile, withWork, workPaths } from "./helpers/codex-durable.js";
import { BIN } from "./helpers/run-bin.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Side by side: the Paperclip server's own native cleanup maintenance (2026.916.1,
// `settleRetainedRunnerdSession`) over the state a runner killed mid-turn left, upstream's Rust
// runner and ours, the maintenance launching the same runner again (the fake app-server as Codex).
// Its epoch restores the provider, stops the turn, drains and suspends; it then asks of
// `codex-provider-state.json` that `providerProcessGeneration` went up by one across the epoch
// (the provider it restored) and that the provider is `prepared`. Both pass in one epoch. Ours
// named that counter `processGeneration` until 2026-12-06, and the maintenance refused its state
// after the epoch (docs/compatibility.md). Killed as the server commits `turn.accepted` (in its
// commit callback), both had answered turn.start already; until 2026-12-06 ours answered it after
// its first events, so its turn.start was left pending there, which the maintenance refuses.
const toolchain = serverToolchainForFile();
const driver = path.join(import.meta.dirname, "helpers", "maintenance-settle-driver.mjs");

/** When the runner is killed: its turn accepted and answered, or as the server commits `turn.accepted`. */
type KillAt = "answered" | "accepted";

async function maintain(
  runnerBin: string,
  killAt: KillAt,
  options: { readonly suspendAckLost?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  return await withWork(async (work) => {
    await mkdir(workPaths(work).cwd, { recursive: true });
    const scenario = path.join(work, "scenario.json");
    await writeFile(
      scenario,
      JSON.stringify({
        serverDir: toolchain().serverDir,
        runnerBin,
        work,
        prepare: codexPrepare(work),
        killAt,
        ...options,
      }),
    );
    const { stdout } = await promisify(execFile)(toolchain().node24, [driver, scenario], {
      timeout: 100_000,
    });
    return stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  });
}

/** The maintenance settled the state in one epoch, suspended and prepared. */
function expectSettledInOneEpoch(records: Record<string, unknown>[]): void {
  const outcome = records.find((record) => record.type === "settled" || record.type === "refused");
  expect(outcome).toMatchObject({ type: "settled" });
  expect(outcome?.epochs).toEqual(
    ["launch_intent", "spawned", "retired"].map((phase) => ({ epoch: 0, phase })),
  );
  // The restored provider's identity, which the maintenance takes as its one new process.
  expect(outcome?.events).toContain("session.resumed");
  expect(records.at(-1)).toEqual({ type: "report", runner: "suspended", provider: "prepared" });
}

const RUNNERS = [
  { which: "upstream", runnerBin: upstreamRunner },
  { which: "ours", runnerBin: () => BIN },
];

describe("the server's native cleanup maintenance over a runner killed mid-turn", {
  timeout: 120_000,
}, () => {
  it.each(RUNNERS)(
    "settles $which runner's state in one epoch, suspended and prepared",
    async ({ runnerBin }) => {
      expectSettledInOneEpoch(await maintain(runnerBin(), "answered"));
    },
  );

  it.each(RUNNERS)(
    "settles $which runner's state killed as the server commits turn.accepted",
    async ({ runnerBin }) => {
      const records = await maintain(runnerBin(), "accepted");
      // The runner answered turn.start before it sent turn.accepted: the server's journal has it.
      expect(records.find((record) => record.type === "at-accepted")).toEqual({
        type: "at-accepted",
        turnStart: "completed",
      });
      expectSettledInOneEpoch(records);
    },
  );
});

// The same maintenance, its first epoch's runner ended once it completed the suspend and the server
// stored its result, before the server's acknowledgement reached it (`suspend-ack-lost.mjs`): the
// state keeps the suspend's fence.
// The server reads the receipt from `runner-state.json` (`completedMaintenanceTerminalReceipt`: the
// `command_result` in `processedCommands`, upstream's digest of the command in
// `processedCommandFingerprints`, the provider `prepared`), delivers it in a second epoch that may
// change neither the journal nor the provider state (`completedMaintenanceTerminalReplayMatches`),
// then drains and suspends in a third. Ours journalled `{type, fingerprint, status, result}` until
// 2026-12-06: the server found no receipt, and its second epoch refused the fence
// (`native_cleanup_maintenance_unproven`, the session left quarantined).
describe("the server's native cleanup maintenance when its runner completed the suspend, the ack lost", {
  timeout: 120_000,
}, () => {
  it.each(RUNNERS)(
    "delivers $which runner's journalled receipt in a further epoch and settles",
    async ({ runnerBin }) => {
      const records = await maintain(runnerBin(), "answered", { suspendAckLost: true });
      // The case is "result stored, ack lost": the server's control journal held the suspend
      // completed as the first epoch's runner retired (not pending, the result never received).
      expect(records.find((record) => record.type === "ack_lost")).toEqual({
        type: "ack_lost",
        fired: true,
        suspend: "completed",
      });
      const outcome = records.find((record) => record.type === "settled" || record.type === "refused");
      expect(outcome).toMatchObject({ type: "settled" });
      expect(outcome?.epochs).toEqual(
        [0, 1, 2].flatMap((epoch) =>
          ["launch_intent", "spawned", "retired"].map((phase) => ({ epoch, phase })),
        ),
      );
      // The receipt the server found after the first epoch, and none once it was delivered.
      const [found, ...after] = (outcome?.receipts ?? []) as unknown[];
      expect(found).toMatchObject({
        commandId: expect.any(String),
        result: { commandType: "runner.suspend", status: "completed", result: { status: "completed" } },
      });
      expect(after).toEqual([null, null]);
      expect(records.at(-1)).toEqual({ type: "report", runner: "suspended", provider: "prepared" });
    },
  );
});
