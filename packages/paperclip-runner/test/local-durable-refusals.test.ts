import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
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
});
