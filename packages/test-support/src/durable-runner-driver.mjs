// What the driver scripts that run a runner under the server's DurablePrpControlPlane and
// spawnRunner share (plain ESM for Node 24, no build): the options the server launches a
// paperclip_runner run with, a launcher for a detached runner, waiting, and the final report.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The runner version the real server approves (its live/runnerd-codex-transport.js). */
export const SERVER_RUNNER_VERSION = "0.3.0";

/** The ids a driver's control plane and runner share, named after the driver. */
export function driverIdentity(label) {
  return {
    runnerInstanceId: `runner-${label}-1`,
    environmentLeaseId: "lease-env-1",
    runId: `run-${label}-1`,
    normalizedSessionId: `session-${label}-1`,
    turnId: `turn-${label}-1`,
    itemId: `item-${label}-1`,
  };
}

/**
 * spawnRunner's options as the server builds them for a paperclip_runner run (16 MiB outbox,
 * 1 MiB P0 reserve, per-turn lifecycle), with the runner's state and diagnostics under `work`.
 */
export function serverSpawnOptions({ controlPlane, connectUrl, work, identity, runnerBin, runnerDigest }) {
  return {
    connectUrl: connectUrl ?? controlPlane.connectUrl,
    stateDirectory: join(work, "runner"),
    identity,
    ticket: controlPlane.issueBootstrapTicket(60_000),
    maxOutboxBytes: 16 * 1024 * 1024,
    p0ReserveBytes: 1024 * 1024,
    maxRuntimeMs: 0,
    reconnectGraceMs: 2_000,
    lifecyclePolicy: { mode: "per_turn", idleTimeoutMs: null },
    runnerBinaryPath: runnerBin,
    runnerVersion: SERVER_RUNNER_VERSION,
    runnerDigest,
    diagnosticsDirectory: join(work, "diagnostics"),
  };
}

/**
 * What a spawnRunner `processLauncher` returns, for the server's launch `spec` run in its own
 * process group; `args` and `env` replace the spec's where a scenario changes them.
 */
export function launchDetached(spec, { args = spec.args, env = spec.environment } = {}) {
  const child = spawn(spec.command, args, { cwd: spec.cwd, env, detached: true, stdio: "ignore" });
  const completion = new Promise((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, stdout: "", stderr: "" })),
  );
  return { child, completion, processGroupId: child.pid };
}

/**
 * Waits for conditions on what the driver observes: `until` re-checks its predicate at every
 * `notify()` and at least every `pollMs`, and fails after `timeoutMs` of the real clock.
 */
export function createWaiter({ now = Date.now, pollMs = 10, timeoutMs = 20_000 } = {}) {
  const waiters = [];
  return {
    notify() {
      for (const wake of waiters.splice(0)) wake();
    },
    async until(predicate, what, limitMs = timeoutMs) {
      const deadline = now() + limitMs;
      while (!predicate()) {
        if (now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, pollMs);
        });
      }
    },
  };
}

/**
 * How the runner of `handle` exited; after `timeoutMs` its process group is killed and this
 * throws. `onSettled` runs either way first (the server's launcher empties the runner's stderr
 * log when it launches again, so a driver reads it there).
 */
export async function runnerExit(handle, timeoutMs, onSettled = () => {}) {
  let timer;
  const result = await Promise.race([
    handle.completion,
    new Promise((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  onSettled();
  if (result === null) {
    killGroup(handle);
    throw new Error("runner did not exit");
  }
  return { code: result.code, signal: result.signal };
}

/** SIGKILLs the runner's whole process group, if it still exists. */
export function killGroup(handle) {
  try {
    process.kill(-handle.child.pid, "SIGKILL");
  } catch {}
}

/** What every driver reports of the control plane's store once its scenario is over. */
export function storeReport(state) {
  return {
    commands: state.commands.map(({ commandId, type, status, result }) => ({
      commandId,
      type,
      status,
      result,
    })),
    committedSeqs: state.committedEvents.map((event) => event.sourceSeq),
    deliveryCounts: state.committedEvents.map((event) => event.deliveryCount),
    freshBootstraps: state.freshBootstraps,
  };
}

/** The runner's stderr log as the server's launcher keeps it, or "" before there is one. */
export function readRunnerDiagnostic(work) {
  try {
    return readFileSync(join(work, "diagnostics", "runnerd.stderr.log"), "utf8");
  } catch {
    return "";
  }
}
