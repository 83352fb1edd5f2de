// Runs on Node 24 (the real server's engines): drives our paperclip-runnerd through the
// server's own spawnRunner and DurablePrpControlPlane for one scenario, and prints what the
// server saw as JSON lines. Written for this repository; it only calls the server's exports.
import { mkdirSync, statSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { readProcStat } from "@paperclipai/internal";
import {
  createWaiter,
  driverIdentity,
  launchDetached,
  readRunnerDiagnostic,
  runnerExit,
  SERVER_RUNNER_VERSION,
  serverSpawnOptions,
  storeReport,
} from "@paperclipai/test-support/durable-runner-driver";
import {
  fileDigest,
  loadServerControlPlane,
  printRecord,
} from "@paperclipai/test-support/server-control-plane";

const scenario = JSON.parse(process.argv[2]);
const { DurablePrpControlPlane, spawnRunner, validatePrpEvent } = await loadServerControlPlane(
  scenario.serverDir,
);
const print = printRecord;
const identity = driverIdentity("oracle");
const runnerDigest = fileDigest(scenario.runnerBin);

// A deterministic clock offset the lease scenario moves forward (the server's clock, not the runner's).
let clockOffsetMs = 0;
const realNow = Date.now.bind(Date);
Date.now = () => realNow() + clockOffsetMs;

const committed = [];
const { until, notify } = createWaiter({ now: realNow, pollMs: 50, timeoutMs: 30_000 });

let commitFailuresLeft = scenario.failCommitAt === undefined ? 0 : 1;
let blocked = null;
const controlPlane = new DurablePrpControlPlane({
  stateDirectory: join(scenario.work, "control-plane"),
  identity,
  expectedRunnerVersion: SERVER_RUNNER_VERSION,
  expectedRunnerDigest: runnerDigest,
  onCommittedEvent: async (event) => {
    const check = validatePrpEvent(event);
    print({ type: "schema", sourceSeq: event.sourceSeq, ok: check.ok, issues: check.issues });
    if (scenario.failCommitAt === event.sourceSeq && commitFailuresLeft > 0) {
      commitFailuresLeft -= 1;
      print({ type: "commit_failed", sourceSeq: event.sourceSeq });
      throw new Error("injected commit failure");
    }
    if (scenario.blockCommitAt === event.sourceSeq && blocked === null) {
      // Sent by the runner, never committed: the scenario kills the runner meanwhile.
      await new Promise((_resolve, reject) => {
        blocked = () => reject(new Error("commit abandoned"));
        notify();
      });
    }
    committed.push(event);
    print({ type: "committed", event });
    notify();
  },
});
await controlPlane.start();

// A byte-level proxy on loopback, for scenarios that tamper with one frame.
let connectUrl = controlPlane.connectUrl;
let tamperLeft = scenario.tamper === undefined ? 0 : 1;
let proxy = null;
if (scenario.tamper !== undefined) {
  const target = new URL(controlPlane.connectUrl);
  proxy = createServer((client) => {
    const upstream = connect(Number(target.port), "127.0.0.1");
    let serverFrames = 0;
    let toServer = Buffer.alloc(0);
    let headerDone = false;
    upstream.on("data", (chunk) => {
      if (scenario.tamper === "server_to_runner" && tamperLeft > 0 && headerDone) {
        // Unmasked server frames: the third one (after challenge and welcome) gets one hex digit changed.
        serverFrames += 1;
        if (serverFrames >= 3) chunk = flipCiphertextDigit(chunk);
      }
      if (!headerDone && chunk.includes("\r\n\r\n")) headerDone = true;
      client.write(chunk);
    });
    client.on("data", (chunk) => {
      if (scenario.tamper !== "runner_to_server" || tamperLeft === 0) {
        upstream.write(chunk);
        return;
      }
      toServer = Buffer.concat([toServer, chunk]);
      upstream.write(rewriteMaskedFrames());
    });
    function rewriteMaskedFrames() {
      // Passes the HTTP upgrade through, then re-masks each client frame, changing the third one.
      const out = [];
      if (!client.upgraded) {
        const end = toServer.indexOf("\r\n\r\n");
        if (end < 0) return Buffer.alloc(0);
        out.push(toServer.subarray(0, end + 4));
        toServer = toServer.subarray(end + 4);
        client.upgraded = true;
        client.frames = 0;
      }
      for (;;) {
        if (toServer.length < 2) break;
        let length = toServer[1] & 0x7f;
        let cursor = 2;
        if (length === 126) {
          if (toServer.length < 4) break;
          length = toServer.readUInt16BE(2);
          cursor = 4;
        } else if (length === 127) {
          if (toServer.length < 10) break;
          length = Number(toServer.readBigUInt64BE(2));
          cursor = 10;
        }
        if (toServer.length < cursor + 4 + length) break;
        const frame = Buffer.from(toServer.subarray(0, cursor + 4 + length));
        toServer = toServer.subarray(cursor + 4 + length);
        client.frames += 1;
        if (client.frames === 3 && tamperLeft > 0) {
          const mask = frame.subarray(cursor, cursor + 4);
          const payload = frame.subarray(cursor + 4);
          for (let i = 0; i < payload.length; i += 1) payload[i] ^= mask[i % 4];
          const changed = flipCiphertextDigit(payload);
          for (let i = 0; i < changed.length; i += 1) payload[i] = changed[i] ^ mask[i % 4];
          tamperLeft = 0;
          print({ type: "tampered", direction: "runner_to_server" });
        }
        out.push(frame);
      }
      return Buffer.concat(out);
    }
    upstream.on("close", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  connectUrl = `ws://127.0.0.1:${proxy.address().port}${target.pathname}`;
}

function flipCiphertextDigit(buffer) {
  const text = buffer.toString("latin1");
  const at = text.indexOf('"ciphertext":"');
  if (at < 0) return buffer;
  const index = at + '"ciphertext":"'.length + 8;
  const copy = Buffer.from(buffer);
  copy[index] = copy[index] === 0x30 ? 0x31 : 0x30;
  if (scenario.tamper === "server_to_runner") {
    tamperLeft = 0;
    print({ type: "tampered", direction: "server_to_runner" });
  }
  return copy;
}

const queue = (type, payload = {}, commandId) => controlPlane.queueCommand(type, payload, commandId, true);
const spawnOptions = {
  ...serverSpawnOptions({
    controlPlane,
    connectUrl,
    work: scenario.work,
    identity,
    runnerBin: scenario.runnerBin,
    runnerDigest,
  }),
  ...(scenario.maxOutboxBytes === undefined ? {} : { maxOutboxBytes: scenario.maxOutboxBytes }),
  ...(scenario.p0ReserveBytes === undefined ? {} : { p0ReserveBytes: scenario.p0ReserveBytes }),
  ...(scenario.script === undefined
    ? {}
    : {
        // The server's launcher names a script inside its own package; this one is ours, same argv otherwise.
        processLauncher: (spec) => launchWithScript(spec, scenario.script),
      }),
};
function launchWithScript(spec, script) {
  const args = [...spec.args];
  args[args.indexOf("--fake-harness-script") + 1] = script;
  // As the server's own launch path does: the diagnostics directory exists, private, before the runner starts.
  mkdirSync(args[args.indexOf("--diagnostics-directory") + 1], { recursive: true, mode: 0o700 });
  print({ type: "launch", args });
  return launchDetached(spec, { args });
}

// The server's launcher empties runnerd.stderr.log when it launches again: read the runner's diagnostic now.
const exitOf = (handle) =>
  runnerExit(handle, 30_000, () => print({ type: "diagnostic", text: readRunnerDiagnostic(scenario.work) }));
const hasEvent = (type) => committed.some((event) => event.eventType === type);

let handle = spawnRunner(spawnOptions);
print({ type: "spawned", pid: handle.child.pid, args: spawnOptions.processLauncher ? undefined : "server" });
queue("run.prepare", {});
queue("session.open", { prompt: "oracle" });
queue("turn.start", { input: [{ type: "text", text: "do the work" }] });

// Every command answered, and the run over unless its turn.start could not complete (indeterminate or rejected).
const settled = () => {
  const commands = controlPlane.store.state.commands;
  const turn = commands.find((command) => command.type === "turn.start");
  return (
    commands.every((command) => command.status !== "pending") &&
    (hasEvent("run.terminal") || turn?.status !== "completed")
  );
};

if (scenario.kind === "sigkill") {
  await until(() => blocked !== null, "the blocked commit");
  const harnessPid = committed.find((event) => event.eventType === "harness.ready")?.payload?.pid ?? null;
  print({ type: "killing", pid: handle.child.pid, harnessPid });
  process.kill(handle.child.pid, "SIGKILL");
  print({ type: "exit", phase: "killed", ...(await exitOf(handle)) });
  blocked();
  handle = handle.restart(controlPlane.issueBootstrapTicket(60_000));
  await until(() => hasEvent("runner.reconciled"), "runner.reconciled after the restart");
  print({
    type: "harness_after_restart",
    pid: harnessPid,
    alive: harnessPid !== null && isAlive(harnessPid),
  });
} else if (scenario.kind === "expire_lease") {
  await until(() => hasEvent("harness.ready"), "harness.ready");
  clockOffsetMs = 10 * 60_000;
  controlPlane.disconnectActiveRunner();
  print({ type: "exit", phase: "lease", ...(await exitOf(handle)) });
  handle = handle.restart(controlPlane.issueBootstrapTicket(60_000));
  await until(settled, "the commands after the restart");
} else if (scenario.kind === "tamper_server_to_runner") {
  print({ type: "exit", phase: "tampered", ...(await exitOf(handle)) });
  handle = handle.restart(controlPlane.issueBootstrapTicket(60_000));
  await until(settled, "the commands after the restart");
} else if (scenario.kind === "outbox_full") {
  // The server acknowledges nothing (its first commit hangs) until the runner's outbox is full.
  await until(() => blocked !== null, "the blocked commit");
  print({ type: "exit", phase: "outbox", ...(await exitOf(handle)) });
  blocked();
} else if (scenario.kind === "renew") {
  // The lease lasts 60 s; the runner renews it halfway, while the turn is still running.
  await until(() => hasEvent("harness.ready"), "harness.ready");
  print({ type: "lease", phase: "welcome", expiresAt: controlPlane.store.state.lastLeaseExpiresAt });
  await until(() => hasEvent("run.terminal"), "run.terminal", 90_000);
  print({ type: "lease", phase: "end", expiresAt: controlPlane.store.state.lastLeaseExpiresAt });
} else {
  await until(() => hasEvent("run.terminal"), "run.terminal");
}
if (scenario.kind !== "outbox_full") {
  queue("runner.shutdown", {});
  await until(() => hasEvent("run.terminal"), "run.terminal");
  print({ type: "exit", phase: "final", ...(await exitOf(handle)) });
}

const state = controlPlane.store.state;
print({
  type: "report",
  ...storeReport(state),
  committedEventIds: state.committedEvents.map((event) => event.sourceEventId),
  ackedSourceSeq: state.ackedSourceSeq,
  connectionCount: state.connectionCount,
  leaseProtocolVersions: Object.values(state.leases).map((lease) => lease.protocolVersion),
  replayDeliveries: state.replayDeliveries,
  malformedFrames: state.malformedFrames,
  duplicateCommandResults: state.duplicateCommandResults,
  runnerStateDirMode: statSync(spawnOptions.stateDirectory).mode & 0o777,
});
await controlPlane.stop();
proxy?.close();

function isAlive(pid) {
  const stat = readProcStat(pid);
  return stat !== undefined && !stat.zombie;
}
