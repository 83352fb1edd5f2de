import { join } from "node:path";
import { isAlive, tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { deafHarnessArgs } from "./helpers/deaf-harness.js";
import { watchdogsOf } from "./helpers/harness-watchdogs.js";
import { Controller, goneWithin } from "./local-controller.js";

// A SIGKILLed daemon with --state-dir never leaves its harness running: its group goes down
// with the daemon, and a harness left behind by a dead daemon is killed before the resume.

// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
describe("the harness of a daemon with --state-dir", { timeout: 60_000 }, () => {
  it("takes the harness group down with a SIGKILLed daemon, even a harness that never reads stdin", async () => {
    const dir = tempDirForTest("runner-watchdog-");
    const controller = new Controller(deafHarnessArgs(["--state-dir", join(dir, "state")]));
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    const ready = await controller.waitForEvent("harness.ready");
    controller.kill("SIGKILL");
    await controller.exited;
    await goneWithin(ready.payload.pid as number);
  });

  it("kills the harness a SIGKILLed daemon left behind before it resumes the session", async () => {
    const dir = tempDirForTest("runner-stale-");
    const stateDir = join(dir, "state");
    // A harness that never reads stdin, so it does not notice its daemon is gone.
    const args = deafHarnessArgs(["--state-dir", stateDir]);
    const first = new Controller(args);
    first.send("run.prepare", "c1");
    first.send("session.open", "c2");
    const ready = await first.waitForEvent("harness.ready");
    await first.waitForReceipt("c2");
    // Daemon and watchdog die together (an OOM kill of both, say): only the restart can clean up.
    for (const pid of watchdogsOf(first.pid)) process.kill(pid, "SIGKILL");
    first.kill("SIGKILL");
    await first.exited;
    const orphan = ready.payload.pid as number;
    expect(isAlive(orphan)).toBe(true);

    const second = new Controller(args);
    const reconciled = await second.waitForEvent("runner.reconciled");
    expect(reconciled.payload).toMatchObject({ staleHarnessKilled: true, resumedSession: true });
    await goneWithin(orphan);
    const resumed = await second.waitForEvent("harness.ready");
    second.send("runner.shutdown", "c3", {}, 3);
    await second.waitForEvent("run.terminal");
    expect((await second.exited).code).toBe(0);
    await goneWithin(resumed.payload.pid as number);
  });
});
