import { describe, expect, it } from "vitest";
import { wireCommandFingerprint } from "../src/commands/command-fingerprint.js";
import { PROVIDER_STATE } from "./helpers/carried-facts.js";
import {
  closeSteps,
  driveCodexRunner,
  openSteps,
  type Step,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import { BIN } from "./helpers/run-bin.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Side by side: upstream's Rust runner and ours, the real control plane and the fake app-server, a
// session closed as the server's transport closes it (drain, suspend, the runner exits), with a
// turn run first or not. What the server's maintenance reads of the files then
// (`completedMaintenanceTerminalReceipt`): `processedCommands[id]` the `command_result` the server
// holds, `processedCommandFingerprints[id]` upstream's digest of the command the server sent, and
// the provider's lifecycle, which both leave `session_open` (`prepared` comes from a `turn.stop`).
// Ours journalled whole records without digests until 2026-12-06 (docs/compatibility.md).
const toolchain = serverToolchainForFile();
const RUNNER_STATE = "runner/runner-state.json";
const CONTROL_STATE = "control-plane/control-plane-state.json";

const turn: Step[] = [
  { op: "queue", type: "turn.start", payload: { text: "hello" }, id: "turn" },
  { op: "event", type: "run.terminal" },
];

describe("the journal and the provider's lifecycle after a suspend", { timeout: 60_000 }, () => {
  it.each([
    { which: "upstream", runnerBin: upstreamRunner, turned: false },
    { which: "upstream", runnerBin: upstreamRunner, turned: true },
    { which: "ours", runnerBin: () => BIN, turned: false },
    { which: "ours", runnerBin: () => BIN, turned: true },
  ])("$which runner (a turn first: $turned)", async ({ runnerBin, turned }) => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(
        toolchain(),
        work,
        [
          ...openSteps(work),
          ...(turned ? turn : []),
          ...closeSteps,
          { op: "snapshotFile", path: RUNNER_STATE },
          { op: "snapshotFile", path: PROVIDER_STATE },
          { op: "snapshotFile", path: CONTROL_STATE },
        ],
        { runnerBin: runnerBin() },
      );
      expect(result.failure).toBeNull();
      const [runner, provider, control] = result.files.map((file) => JSON.parse(file.text ?? "null"));
      expect(provider.lifecycle).toBe("session_open");
      expect(runner.lifecycle).toBe("suspended");
      expect(runner.pendingTerminalDelivery).toBeNull();
      // Each command as the server holds it: the wire form it sent, its status and the result it received.
      for (const { status, result: held, ...sent } of control.commands) {
        expect(status).toBe("completed");
        expect(runner.processedCommands[sent.commandId]).toEqual(held);
        expect(runner.processedCommandFingerprints[sent.commandId]).toBe(wireCommandFingerprint(sent));
      }
      expect(runner.processedCommands.suspend).toMatchObject({
        commandType: "runner.suspend",
        status: "completed",
        result: { status: "completed" },
      });
    });
  });
});
