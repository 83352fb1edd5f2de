// Runs on Node 24 (the real server's engines): drives the built paperclip-runnerd in durable mode
// through the Paperclip server's own spawnRunner and DurablePrpControlPlane, following the steps
// of one scenario, and prints what the server saw as JSON lines. Semantic tool inputs are answered
// through the control plane's onSemanticToolInput, as the server's transport does.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  createWaiter,
  driverIdentity,
  killGroup,
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

// The scenario comes in a file (a response of 100 000 characters would not fit an argument).
const scenario = JSON.parse(readFileSync(process.argv[2], "utf8"));
const { DurablePrpControlPlane, spawnRunner, validatePrpEvent } = await loadServerControlPlane(
  scenario.serverDir,
);
const print = printRecord;
const identity = driverIdentity("codex");
const runnerDigest = fileDigest(scenario.runnerBin);
const { until, notify } = createWaiter();

const committed = [];
let releaseTools;
const toolsReleased = new Promise((resolve) => {
  releaseTools = resolve;
});
const controlPlane = new DurablePrpControlPlane({
  stateDirectory: join(scenario.work, "control-plane"),
  identity,
  expectedRunnerVersion: SERVER_RUNNER_VERSION,
  expectedRunnerDigest: runnerDigest,
  onCommittedEvent: async (event) => {
    const check = validatePrpEvent(event);
    if (!check.ok) print({ type: "invalid", sourceSeq: event.sourceSeq, issues: check.issues });
    committed.push(event);
    print({ type: "committed", event });
    notify();
  },
  onSemanticToolInput: async (call) => {
    print({ type: "semantic_call", call });
    // A held call is answered only at the scenario's "releaseTools" step (after a kill, say).
    if (scenario.holdTools) await toolsReleased;
    return { result: { ok: true, echoed: call.input.body ?? null }, isError: false };
  },
});
await controlPlane.start();

const count = (type) => committed.filter((event) => event.eventType === type).length;
// The control plane acknowledges an event just after onCommittedEvent returns. A step after an
// "event" step waits for that acknowledgement, so the ack reaches the runner before the next
// command (a drain's retainedEventsDrained then does not depend on which was sent first). A
// connection the control plane closed instead never acknowledges: that wait gives up.
const acknowledged = () =>
  until(
    () => committed.every((event) => event.sourceSeq <= controlPlane.store.state.ackedSourceSeq),
    "the committed events' acknowledgement",
    2_000,
  ).catch(() => {});
/** A queued payload's `requestId: "$lastRuntimeRequest"` names the runtime request the runner committed last. */
const withRuntimeRequestId = (payload) => {
  if (payload?.requestId !== "$lastRuntimeRequest") return payload;
  const created = committed.filter((event) => event.eventType === "runtime_request.created").at(-1);
  return { ...payload, requestId: created?.payload?.request?.requestId };
};
/** How many `method` requests the fake app-servers logged (they share the Codex home). */
const providerReceived = (method) => {
  let text = "";
  try {
    text = readFileSync(join(scenario.runnerEnv.CODEX_HOME, "log.jsonl"), "utf8");
  } catch {}
  return text
    .split("\n")
    .filter((line) => line !== "")
    .filter((line) => JSON.parse(line).message?.method === method).length;
};
const command = (id) => controlPlane.store.state.commands.find((candidate) => candidate.commandId === id);

const spawnOptions = {
  ...serverSpawnOptions({
    controlPlane,
    work: scenario.work,
    identity,
    runnerBin: scenario.runnerBin,
    runnerDigest,
  }),
  environment: { ...process.env, ...scenario.runnerEnv },
  ...(scenario.opencodeLaunchProfile ? { opencodeLaunchProfile: scenario.opencodeLaunchProfile } : {}),
  // The server's launcher passes only its allowlisted environment; a test knob for the runner
  // itself (a short provider request timeout) is added here, argv and everything else unchanged.
  ...(scenario.launcherEnv
    ? {
        processLauncher: (spec) =>
          launchDetached(spec, { env: { ...spec.environment, ...scenario.launcherEnv } }),
      }
    : {}),
};
mkdirSync(spawnOptions.diagnosticsDirectory, { recursive: true, mode: 0o700 });
const exitOf = (handle) => runnerExit(handle, 20_000);

/** The pid of the fake app-server (or proxy) started last, from its log. */
const lastFakeStartPid = () =>
  readFileSync(join(scenario.runnerEnv.CODEX_HOME, "log.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line))
    .filter((record) => record.kind === "start")
    .at(-1).pid;

let handle = spawnRunner(spawnOptions);
try {
  for (const step of scenario.steps) {
    if (step.op === "queue") {
      controlPlane.queueCommand(step.type, withRuntimeRequestId(step.payload ?? {}), step.id, true);
    } else if (step.op === "event") {
      const needed = step.count ?? 1;
      await until(() => count(step.type) >= needed, `${needed} ${step.type}`);
      await acknowledged();
    } else if (step.op === "command") {
      await until(
        () => command(step.id) !== undefined && command(step.id).status !== "pending",
        `command ${step.id}`,
      );
    } else if (step.op === "commandOfType") {
      await until(
        () => controlPlane.store.state.commands.some((c) => c.type === step.type && c.status !== "pending"),
        `a ${step.type} command`,
      );
    } else if (step.op === "sigkill") {
      print({ type: "killing", pid: handle.child.pid });
      process.kill(handle.child.pid, "SIGKILL");
      print({ type: "exit", phase: "killed", ...(await exitOf(handle)) });
    } else if (step.op === "killProvider") {
      // The provider alone dies (killed from outside): its pid as the runner's state file records it,
      // or (upstream's runner keeps it elsewhere) as the fake app-server logged its last start.
      const state = JSON.parse(
        readFileSync(join(scenario.work, "runner", "codex-provider-state.json"), "utf8"),
      );
      const pid = typeof state.processId === "number" ? state.processId : lastFakeStartPid();
      print({ type: "killing-provider", pid });
      process.kill(pid, "SIGKILL");
    } else if (step.op === "restart") {
      handle = handle.restart(controlPlane.issueBootstrapTicket(60_000));
    } else if (step.op === "exit") {
      print({ type: "exit", phase: "final", ...(await exitOf(handle)) });
    } else if (step.op === "providerReceived") {
      await until(
        () => providerReceived(step.method) >= (step.count ?? 1),
        `the provider to receive ${step.method}`,
      );
    } else if (step.op === "fileContains") {
      const file = join(scenario.work, step.path);
      const holds = () => {
        try {
          return readFileSync(file, "utf8").includes(step.text);
        } catch {
          return false;
        }
      };
      await until(holds, `${step.path} to contain ${step.text}`);
    } else if (step.op === "snapshotFile") {
      let text = null;
      try {
        text = readFileSync(join(scenario.work, step.path), "utf8");
      } catch {}
      print({ type: "file", path: step.path, text });
    } else if (step.op === "releaseTools") {
      releaseTools();
    }
  }
} catch (error) {
  print({ type: "failure", message: String(error?.message ?? error) });
  killGroup(handle);
}

print({
  type: "report",
  ...storeReport(controlPlane.store.state),
  diagnostic: readRunnerDiagnostic(scenario.work),
});
await controlPlane.stop();
