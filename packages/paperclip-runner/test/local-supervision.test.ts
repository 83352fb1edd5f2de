import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readCommandLine, tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { deafHarnessArgs } from "./helpers/deaf-harness.js";
import { logsOf, READY, startTurn } from "./helpers/local-steps.js";
import {
  Controller,
  fakeDaemon,
  goneWithin,
  IDS,
  runResult,
  terminalOf,
  type WireEvent,
} from "./local-controller.js";

const WATCHDOG = "paperclip-harness-watchdog";

/**
 * Stops (SIGSTOP) the group watchdog of `controller`'s harness, so that only the runner itself can
 * end the harness's group: a test that then waits for the group to go proves the runner did it,
 * however long the wait (the runner's dismissal, a SIGKILL, still ends the stopped shell).
 */
async function holdWatchdog(controller: Controller): Promise<void> {
  const watchdog = await vi.waitFor(
    () => {
      const children = readFileSync(`/proc/${controller.pid}/task/${controller.pid}/children`, "utf8");
      const found = children
        .split(/\s+/)
        .filter(Boolean)
        .map(Number)
        .find((pid) => readCommandLine(pid)?.includes(WATCHDOG));
      expect(found, "the harness's watchdog").toBeDefined();
      return found as number;
    },
    { timeout: 20_000, interval: 20 },
  );
  process.kill(watchdog, "SIGSTOP");
  // A watchdog still there means the runner did not end the group (the test failed): let it go on,
  // it finds the runner gone and ends the group, so the failure leaves no harness behind.
  onTestFinished(() => {
    if (readCommandLine(watchdog)?.includes(WATCHDOG)) process.kill(watchdog, "SIGCONT");
  });
}

// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
/** Local mode with `/bin/sh -c script` as the harness (`--harness-command`), `args` after the script. */
function shellHarnessArgs(script: string, args: readonly string[] = []): string[] {
  return [
    ...IDS,
    "--harness-command",
    "/bin/sh",
    ...["-c", script, ...args].flatMap((arg) => ["--harness-arg", arg]),
  ];
}

describe("local mode: the harness process, its environment and its stop", { timeout: 60_000 }, () => {
  it("ends with controller_closed when stdin closes mid-session, and leaves no harness behind", async () => {
    const pidFile = join(tempDirForTest("runner-eof-"), "sleeper.pid");
    const controller = fakeDaemon({
      steps: [
        READY,
        { spawnSleeper: { pidFile, ms: 60_000 } },
        { event: { eventType: "item.started" } },
        { sleep: 60_000 },
      ],
    });
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    const ready = await controller.waitForEvent("harness.ready");
    await controller.waitForEvent("item.started");
    await holdWatchdog(controller);
    controller.closeStdin();
    expect(await terminalOf(controller)).toBe("controller_closed");
    await goneWithin(ready.payload.pid as number);
    await goneWithin(Number(readFileSync(pidFile, "utf8")));
  });

  it("escalates to SIGKILL for a harness that ignores SIGTERM, and reports run_cancelled", async () => {
    const controller = fakeDaemon({
      ignoreSigterm: true,
      ignoreStdinEof: true,
      steps: [READY, { sleep: 60_000 }],
    });
    controller.send("run.prepare", "c1");
    const ready = await controller.waitForEvent("harness.ready");
    await holdWatchdog(controller);
    controller.send("run.cancel", "c2");
    expect(await terminalOf(controller)).toBe("run_cancelled");
    expect(controller.event("harness.exited")?.payload.processExit).toMatchObject({ signal: 9 });
    expect(JSON.stringify(logsOf(controller))).toContain("stderr: fake harness: ignoring SIGTERM");
    await goneWithin(ready.payload.pid as number);
  });

  it("ends with runner_shutdown on runner.shutdown and on SIGTERM to the daemon", async () => {
    const byCommand = fakeDaemon({ steps: [READY, { sleep: 60_000 }] });
    const bySignal = fakeDaemon({ steps: [READY, { sleep: 60_000 }] });
    for (const controller of [byCommand, bySignal]) {
      controller.send("run.prepare", "c1");
      await controller.waitForEvent("harness.ready");
    }
    byCommand.send("runner.shutdown", "c2");
    bySignal.kill("SIGTERM");
    expect(await terminalOf(byCommand)).toBe("runner_shutdown");
    expect(await terminalOf(bySignal)).toBe("runner_shutdown");
    expect(byCommand.receiptFor("c2")[0]).toMatchObject({ status: "accepted" });
  });

  it("gives the harness a minimal environment: a secret reaches it only when the launcher names it", async () => {
    const script = { steps: [READY, { emitEnv: true }, { sleep: 60_000 }] };
    const env = {
      ...process.env,
      OPENAI_API_KEY: "sk-test-secret-value-123",
      UNRELATED_TOKEN: "t0ken-value",
    };
    const namesOf = async (controller: Controller): Promise<string[]> => {
      controller.send("run.prepare", "c1");
      const event: WireEvent = await controller.waitForEvent("session.updated");
      controller.send("run.cancel", "c2");
      await terminalOf(controller);
      return event.payload.names as string[];
    };
    const plainNames = await namesOf(fakeDaemon(script, env));
    expect(plainNames).toContain("PATH");
    expect(plainNames).toContain("PAPERCLIP_RUN_ID");
    expect(plainNames).not.toContain("OPENAI_API_KEY");
    expect(plainNames).not.toContain("UNRELATED_TOKEN");
    const namedNames = await namesOf(
      fakeDaemon(script, { ...env, PAPERCLIP_RUNNER_HARNESS_ENV: "OPENAI_API_KEY" }),
    );
    expect(namedNames).toContain("OPENAI_API_KEY");
    expect(namedNames).not.toContain("UNRELATED_TOKEN");
  });

  it("masks the value of a variable passed through by name in the harness's log tail", async () => {
    // No rule knows this shape: only its value can catch it.
    const secret = "correct-horse-battery-9431";
    const controller = new Controller(
      shellHarnessArgs('echo "{\\"type\\":\\"ready\\"}"; echo "using $PLAIN_SECRET" >&2; read line; exit 3'),
      { ...process.env, PLAIN_SECRET: secret, PAPERCLIP_RUNNER_HARNESS_ENV: "PLAIN_SECRET" },
    );
    startTurn(controller);
    await terminalOf(controller);
    const logs = JSON.stringify(logsOf(controller));
    expect(logs).toContain("stderr: using [REDACTED]");
    expect(logs).not.toContain(secret);
  });

  it("runs any harness speaking the protocol with --harness-command and --harness-arg", async () => {
    const result = JSON.stringify({ type: "result", result: { ...runResult(), summary: "%s" } });
    const controller = new Controller(
      shellHarnessArgs(`echo '{"type":"ready"}'; read line; read line; printf '${result}\\n' "$1"`, [
        "sh",
        "--verbatim-argument",
      ]),
    );
    startTurn(controller);
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    expect(controller.event("run.result.proposed")?.payload.summary).toBe("--verbatim-argument");
    expect(controller.event("harness.starting")?.payload).toMatchObject({
      label: "sh",
      driverKind: "command",
    });
  });

  it("still takes a cancel when the harness stopped reading its stdin", async () => {
    const controller = new Controller(deafHarnessArgs(["--controller-max-line-bytes", "1048576"]));
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    // Far more than a pipe holds: this write cannot complete.
    controller.send("turn.start", "c3", { input: "x".repeat(300_000) });
    controller.send("run.cancel", "c4");
    expect(await terminalOf(controller)).toBe("run_cancelled");
    expect(controller.receiptFor("c4")[0]).toMatchObject({ status: "accepted" });
  });

  it("reports a harness command that cannot be spawned as harness_start_failed", async () => {
    const controller = new Controller([...IDS, "--harness-command", "/nonexistent/harness"]);
    controller.send("run.prepare", "c1");
    expect(await terminalOf(controller)).toBe("harness_start_failed");
    expect(String(controller.event("harness.exited")?.payload.spawnError)).toContain("ENOENT");
  });

  it("runs an upstream script's spawn_worker and leaves no worker behind when the harness exits", async () => {
    const controller = fakeDaemon({
      schema: "paperclip.fake_harness.script.v1",
      name: "worker",
      steps: [{ kind: "spawn_worker" }, { kind: "result", payload: runResult() }, { kind: "exit", code: 0 }],
    });
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    // The script's steps run on turn.start: until then the harness waits, and its watchdog can be
    // held, so that the worker's end is the runner's doing however long it takes.
    await controller.waitForEvent("session.started");
    await holdWatchdog(controller);
    controller.send("turn.start", "c3", { turnId: "t1" });
    expect(await terminalOf(controller)).toBe("successful_process_and_result");
    const logs = controller.event("harness.exited")?.payload.logs as { lines: string[] };
    const worker = /"workerPid":(\d+)/.exec(logs.lines.join("\n"));
    expect(worker).not.toBeNull();
    await goneWithin(Number(worker?.[1]));
  });
});
