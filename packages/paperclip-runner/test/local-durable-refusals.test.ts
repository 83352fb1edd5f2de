import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import {
  builtinHarnessArgs,
  Controller,
  goneWithin,
  IDS,
  runResult,
  writeScript,
} from "./local-controller.js";

// A daemon with --state-dir fails rather than run on without its guarantees: a state it can
// no longer write privately, another run's state, a corrupt one, a second live daemon.

// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
describe("refusals of a daemon with --state-dir", { timeout: 60_000 }, () => {
  it("fails, exit 1, and stops its harness when the state can no longer be written privately", async () => {
    const dir = tempDirForTest("runner-unwritable-");
    const stateDir = join(dir, "state");
    const script = writeScript(dir, {
      steps: [{ ready: {} }, { waitFor: "turn.start" }, { result: runResult() }, { sleep: 60_000 }],
    });
    const controller = new Controller(builtinHarnessArgs(script, ["--state-dir", stateDir]));
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    const ready = await controller.waitForEvent("harness.ready");
    await controller.waitForReceipt("c2");
    // Someone widens the directory mid-run: the next durable step must refuse it rather than write.
    chmodSync(stateDir, 0o755);
    controller.send("turn.start", "c3");
    expect((await controller.exited).code).toBe(1);
    expect(controller.stderr).toContain("code: ERR_RUNNER_PRIVATE_DIR_PERMISSIONS");
    expect(controller.receiptFor("c3")).toEqual([]);
    await goneWithin(ready.payload.pid as number);
  });

  it("refuses another run's state, a corrupt state file, a second live daemon and a non-private directory", async () => {
    const dir = tempDirForTest("runner-refuse-");
    const stateDir = join(dir, "state");
    const script = writeScript(dir, { steps: [{ ready: {} }, { sleep: 60_000 }] });
    const harness = ["--fake-harness", "builtin", "--script", script];

    const owner = new Controller([...IDS, ...harness, "--state-dir", stateDir]);
    owner.send("run.prepare", "c0");
    await owner.waitForEvent("harness.ready");
    const second = new Controller([...IDS, ...harness, "--state-dir", stateDir]);
    expect((await second.exited).code).toBe(1);
    expect(second.stderr).toContain(`durable state is in use by another runner process (pid ${owner.pid})`);
    expect(second.stderr).toContain("code: ERR_RUNNER_STATE_LOCKED");
    owner.send("run.cancel", "c1", {}, 2);
    await owner.exited;

    const otherRun = new Controller([
      "--run-id",
      "run-2",
      "--session-id",
      "session-1",
      "--runner-id",
      "runner-1",
      ...harness,
      "--state-dir",
      stateDir,
    ]);
    expect((await otherRun.exited).code).toBe(1);
    expect(otherRun.stderr).toContain("durable state binding does not match this runner invocation");
    expect(otherRun.stderr).toContain("code: ERR_RUNNER_STATE_BINDING_MISMATCH");

    const corruptDir = join(dir, "corrupt");
    mkdirSync(corruptDir, { mode: 0o700 });
    writeFileSync(join(corruptDir, "runner-state.json"), "{ half a file", { mode: 0o600 });
    const corrupt = new Controller([...IDS, ...harness, "--state-dir", corruptDir]);
    expect((await corrupt.exited).code).toBe(1);
    expect(corrupt.stderr).toContain("durable state file is not valid: it is not JSON");
    expect(corrupt.stderr).toContain("code: ERR_RUNNER_STATE_CORRUPT");

    const immutableDir = join(dir, "immutable");
    mkdirSync(immutableDir, { mode: 0o700 });
    execFileSync("chattr", ["+i", immutableDir]);
    try {
      const immutable = new Controller([...IDS, ...harness, "--state-dir", immutableDir]);
      expect((await immutable.exited).code).toBe(1);
      // The lock is written to a private temporary file first, then linked into place.
      expect(immutable.stderr).toContain(
        `EPERM: operation not permitted, open '${immutableDir}/runner.lock.`,
      );
      expect(immutable.stderr).toContain("code: ERR_RUNNER_STATE_LOCK_FAILED");
    } finally {
      execFileSync("chattr", ["-i", immutableDir]);
    }

    const sharedDir = join(dir, "shared");
    mkdirSync(sharedDir);
    chmodSync(sharedDir, 0o755);
    const shared = new Controller([...IDS, ...harness, "--state-dir", sharedDir]);
    expect((await shared.exited).code).toBe(1);
    expect(shared.stderr).toContain("private directory is accessible by group or other users");
    expect(shared.stderr).toContain("code: ERR_RUNNER_PRIVATE_DIR_PERMISSIONS");
  });

  it("refuses a journal whose records were reordered or repeated, and leaves it as it was", async () => {
    const dir = tempDirForTest("runner-journal-order-");
    const stateDir = join(dir, "state");
    const script = writeScript(dir, { steps: [{ ready: {} }, { sleep: 60_000 }] });
    const args = [...IDS, "--fake-harness", "builtin", "--script", script, "--state-dir", stateDir];
    const first = new Controller(args);
    first.send("run.prepare", "c1");
    await first.waitForReceipt("c1");
    first.send("session.open", "c2");
    await first.waitForReceipt("c2");
    first.kill("SIGKILL");
    await first.exited;
    const journalPath = join(stateDir, "runner-journal.ndjson");
    const original = readFileSync(journalPath, "utf8");
    const lines = original.trimEnd().split("\n");
    const numbering = (seq: number) => lines.findIndex((line) => line.includes(`"nextEventSeq":${seq},`));
    const [earlier, later] = [numbering(5), numbering(6)];
    expect(earlier).toBeGreaterThan(0);
    expect(later).toBeGreaterThan(earlier);
    const swapped = [...lines];
    [swapped[earlier], swapped[later]] = [lines[later] as string, lines[earlier] as string];
    // Each record is valid alone; resumed as they stand, the daemon sent a second event seq 5.
    for (const tampered of [swapped, [...lines, lines[earlier] as string]]) {
      const text = `${tampered.join("\n")}\n`;
      writeFileSync(journalPath, text);
      const restarted = new Controller(args);
      expect((await restarted.exited).code).toBe(1);
      expect(restarted.stderr).toContain(
        "durable state file is not valid: the outbox is not the events after ackedSeq up to nextEventSeq",
      );
      expect(restarted.stderr).toContain("code: ERR_RUNNER_STATE_CORRUPT");
      expect(restarted.events()).toEqual([]);
      // The refusal keeps the evidence: the journal is not restarted.
      expect(readFileSync(journalPath, "utf8")).toBe(text);
    }
    writeFileSync(journalPath, original);
    const resumed = new Controller(args);
    const reconciled = await resumed.waitForEvent("runner.reconciled");
    expect(resumed.events().map((event) => event.sourceSeq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(reconciled.sourceSeq).toBe(6);
    resumed.send("run.cancel", "c3", {}, 3);
    await resumed.exited;
  });
});
