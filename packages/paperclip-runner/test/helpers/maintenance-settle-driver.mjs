// Runs on Node 24 (the real server's engines): a run left for the server's native cleanup
// maintenance, then that maintenance. Through the server's own spawnRunner and
// DurablePrpControlPlane, the runner opens a Codex session (the fake app-server) and starts a turn
// that hangs; the runner is SIGKILLed (the fake exits with it), leaving `runner-state.json` `ready`
// and `codex-provider-state.json` `turn_active`, the state the server's cleanup lane admits. When:
// `scenario.killAt` `answered`, once the server committed `turn.accepted` and the turn.start's
// result; `accepted`, as the server commits `turn.accepted` (in its commit callback, before it
// stores or acknowledges the event; the runner may have sent the facts and turn.started behind it
// already, as the welcome allows batches, but the server has stored none of them), the
// turn.start's status in the server's journal at that moment printed first (`at-accepted`). Then the server's `settleRetainedRunnerdSession` runs
// over that state directory with the same runner, as `reconcileRetainedNativeSessionCleanup`
// calls it (its database callbacks recorded here instead). Prints JSON lines: the maintenance's
// outcome (`settled` with its epochs and events, or `refused` with the error; both with what the
// server's own `completedMaintenanceTerminalReceipt` read as each epoch's runner retired), with
// `suspendAckLost` whether the first epoch's runner was ended before its suspend's ack and the
// suspend's status in the server's control journal as that runner retired, then `report`.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  createWaiter,
  driverIdentity,
  killGroup,
  runnerExit,
  serverSpawnOptions,
} from "@paperclipai/test-support/durable-runner-driver";
import {
  fileDigest,
  loadServerControlPlane,
  printRecord,
} from "@paperclipai/test-support/server-control-plane";
import { suspendAckLost, suspendStatus } from "./suspend-ack-lost.mjs";

const scenario = JSON.parse(readFileSync(process.argv[2], "utf8"));
const { DurablePrpControlPlane, spawnRunner } = await loadServerControlPlane(scenario.serverDir);
const vendor = join(scenario.serverDir, "node_modules/@paperclipai/server/dist/vendor/paperclip-runner");
const { settleRetainedRunnerdSession } = await import(pathToFileURL(join(vendor, "index.js")).href);
const { runnerdRecoveryInternals } = await import(
  pathToFileURL(join(vendor, "live/runnerd-codex-transport.js")).href
);
const identity = driverIdentity("codex");
const root = scenario.work;
const read = (file) => JSON.parse(readFileSync(join(root, file), "utf8"));
const codexHome = join(root, "codex-home");
const { until, notify } = createWaiter();
let handle = null;
let killedAtAccepted = false;

/** Whether neither the process nor a group of its id exists, as the server's maintenance asks. */
const absent = (pid) =>
  [pid, -pid].every((target) => {
    try {
      process.kill(target, 0);
      return false;
    } catch (error) {
      return error.code === "ESRCH";
    }
  });

/** The maintenance's source fingerprint, computed as its `readMaintenanceState` does. */
const sourceFingerprint = () => {
  const files = [
    "control-plane/control-plane-state.json",
    "runner/runner-state.json",
    "runner/codex-provider-state.json",
  ];
  const digests = files.map((file) =>
    createHash("sha256")
      .update(readFileSync(join(root, file)))
      .digest("hex"),
  );
  return createHash("sha256").update(JSON.stringify(digests)).digest("hex");
};

// The run the maintenance settles: a session opened, a turn hanging, the runner killed.
const committed = [];
const controlPlane = new DurablePrpControlPlane({
  stateDirectory: join(root, "control-plane"),
  identity,
  expectedRunnerVersion: "0.3.0",
  expectedRunnerDigest: fileDigest(scenario.runnerBin),
  onCommittedEvent: async (event) => {
    committed.push(event);
    if (scenario.killAt === "accepted" && event.eventType === "turn.accepted" && !killedAtAccepted) {
      killedAtAccepted = true;
      const turn = controlPlane.store.state.commands.find((command) => command.commandId === "turn");
      printRecord({ type: "at-accepted", turnStart: turn?.status });
      process.kill(handle.child.pid, "SIGKILL");
    }
    notify();
  },
  onSemanticToolInput: async () => ({ result: {}, isError: false }),
});
await controlPlane.start();
mkdirSync(join(root, "diagnostics"), { recursive: true, mode: 0o700 });
handle = spawnRunner({
  ...serverSpawnOptions({
    controlPlane,
    work: root,
    identity,
    runnerBin: scenario.runnerBin,
    runnerDigest: fileDigest(scenario.runnerBin),
  }),
  environment: { ...process.env, CODEX_HOME: codexHome },
});
const providerPid = () => committed.find((event) => event.eventType === "session.started")?.payload.processId;
try {
  controlPlane.queueCommand("run.prepare", scenario.prepare, "prepare", true);
  controlPlane.queueCommand("session.open", { reuse: "same_session" }, "open", true);
  controlPlane.queueCommand("turn.start", { text: "hang" }, "turn", true);
  if (scenario.killAt === "accepted") await until(() => killedAtAccepted, "turn.accepted's commit");
  else {
    await until(
      () =>
        committed.some((event) => event.eventType === "turn.accepted") &&
        controlPlane.store.state.commands.find((command) => command.commandId === "turn")?.status ===
          "completed",
      "the turn accepted and answered",
    );
    process.kill(handle.child.pid, "SIGKILL");
  }
  await runnerExit(handle, 20_000);
  await until(() => absent(providerPid()), "the killed runner's provider to exit");
} catch (error) {
  killGroup(handle);
  throw error;
} finally {
  await controlPlane.stop();
}

// The maintenance, over the state directory the killed runner left. With `suspendAckLost`, its
// first epoch's runner is ended once it completed the suspend, before the ack (`suspend-ack-lost.mjs`).
const epochs = [];
const events = [];
const lost = scenario.suspendAckLost ? suspendAckLost(root) : null;
/** The suspend's status in the server's control journal as the first epoch's runner retired. */
let suspendAtFirstRetire = null;
/** What the server's own receipt reader makes of the files as each epoch's runner left them. */
const receipts = [];
const stateFiles = () => ({
  control: read("control-plane/control-plane-state.json"),
  runner: read("runner/runner-state.json"),
  provider: read("runner/codex-provider-state.json"),
});
const provider = JSON.parse(readFileSync(join(root, "runner/codex-provider-state.json"), "utf8"));
try {
  const proof = await settleRetainedRunnerdSession({
    requestId: "native-cleanup:test",
    binding: {
      companyId: "company-1",
      issueId: "issue-1",
      agentId: "agent-1",
      runId: identity.runId,
      sessionId: identity.normalizedSessionId,
    },
    identity,
    backend: { kind: "runner", name: "codex_app_server" },
    stateDirectory: root,
    activationDirectory: join(root, "activation"),
    sourceFingerprint: sourceFingerprint(),
    providerSessionId: provider.threadId,
    originalRunnerPid: handle.child.pid,
    originalProviderPid: providerPid(),
    environment: { PATH: process.env.PATH },
    runnerBinary: scenario.runnerBin,
    authorize: async () => {},
    recordEpoch: async (receipt) => {
      epochs.push({ epoch: receipt.epoch, phase: receipt.phase });
      if (lost !== null && receipt.epoch === 0 && receipt.phase === "spawned")
        lost.arm(receipt.processGroupId);
      if (receipt.epoch === 0 && receipt.phase === "retired") suspendAtFirstRetire = suspendStatus(root);
      if (receipt.phase === "retired")
        receipts.push(runnerdRecoveryInternals.completedMaintenanceTerminalReceipt(stateFiles()));
    },
    appendEvent: async (event) => {
      events.push(event.eventType);
    },
  });
  printRecord({ type: "settled", settledFingerprint: proof.settledFingerprint, epochs, events, receipts });
} catch (error) {
  printRecord({ type: "refused", message: String(error?.message ?? error), epochs, events, receipts });
} finally {
  lost?.restore();
}
if (lost !== null) printRecord({ type: "ack_lost", fired: lost.fired, suspend: suspendAtFirstRetire });
printRecord({
  type: "report",
  runner: read("runner/runner-state.json").lifecycle,
  provider: read("runner/codex-provider-state.json").lifecycle,
});
