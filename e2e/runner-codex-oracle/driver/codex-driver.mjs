// Runs on Node 24 (the real server's engines): drives one runner binary (upstream's Rust
// paperclip-runnerd or ours) through the server's own createRunnerdCodexTransport, with the real
// Codex CLI against a loopback model stub, for one scenario; prints what happened as JSON lines
// (the committed PRP events last). Written for this repository; it only calls the server's exports.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runAskScenario } from "./ask-scenario.mjs";
import { runBeyondScenario } from "./beyond-scenario.mjs";
import { runBreadthScenario } from "./breadth-scenario.mjs";
import { committedCommands, committedEvents } from "./committed-state.mjs";
import { tapControlPlane } from "./control-plane-tap.mjs";
import { runEdgeScenario, runInterruptToolScenario } from "./edge-scenario.mjs";
import { runFurtherScenario } from "./further-scenario.mjs";
import { runGoalsScenario } from "./goals-scenario.mjs";
import { runLifecycleScenario } from "./lifecycle-scenario.mjs";
import { runLimitsScenario } from "./limits-scenario.mjs";
import { startModelStub } from "./model-stub.mjs";
import { runMoreScenario } from "./more-scenario.mjs";
import { runOddCallsScenario } from "./odd-calls-scenario.mjs";
import { createOracleSession, RUNNER_INSTANCE_ID } from "./oracle-session.mjs";
import { runPendingScenario } from "./pending-scenario.mjs";
import { alive } from "./process-alive.mjs";
import { runRecoveryScenario } from "./recovery-scenario.mjs";
import { remoteLaunchOptions } from "./remote-launch.mjs";
import { runReopenScenario } from "./reopen-scenario.mjs";
import { runResultsScenario } from "./results-scenario.mjs";
import { runSessionScenario } from "./session-scenario.mjs";
import { createStepLog } from "./step-log.mjs";
import { runSubagentScenario } from "./subagent-scenario.mjs";
import { runToolsScenario } from "./tools-scenario.mjs";

const scenario = JSON.parse(process.argv[2]);
const vendor = join(scenario.serverDir, "node_modules/@paperclipai/server/dist/vendor/paperclip-runner");
const server = await import(pathToFileURL(join(vendor, "live/runnerd-codex-transport.js")).href);
const { validatePrpEvent } = await import(pathToFileURL(join(vendor, "protocol/replay-contract.js")).href);
const tap = await tapControlPlane(vendor);

const log = createStepLog();
const { print } = log;
const stub = await startModelStub();
// `remoteRunnerFile`: the runner is staged alone in a loopback "sandbox" and started by the
// server's remote launcher instead of its local spawn.
const remote =
  scenario.remoteRunnerFile === undefined
    ? null
    : await remoteLaunchOptions({
        serverDir: scenario.serverDir,
        runnerFile: scenario.remoteRunnerFile,
        sandboxRoot: join(scenario.work, "sandbox"),
        workspace: join(scenario.work, "workspace"),
        runnerInstanceId: RUNNER_INSTANCE_ID,
      });
const session = createOracleSession({ scenario, server, stub, log, remote });

/** Each scenario kind's turns, run on the opened thread; the session is closed after them. */
const scenarios = {
  turn: (h) => runSessionScenario(h, false),
  session: (h) => runSessionScenario(h, true),
  edges: async (h) => {
    await runEdgeScenario(h);
    print({ type: "tool_calls", calls: h.toolCalls });
  },
  "interrupt-tool": async (h) => {
    await runInterruptToolScenario(h);
    print({ type: "tool_calls", calls: h.toolCalls });
  },
  more: async (h) => {
    await runMoreScenario(h);
    print({ type: "tool_calls", calls: h.toolCalls });
  },
  beyond: async (h) => {
    await runBeyondScenario(h);
    print({ type: "tool_calls", calls: h.toolCalls });
  },
  breadth: async (h) => {
    await runBreadthScenario(h);
    print({ type: "tool_calls", calls: h.toolCalls });
  },
  "odd-calls": async (h) => {
    await runOddCallsScenario(h);
    print({ type: "tool_calls", calls: h.toolCalls });
  },
  "large-commands": (h) => runLimitsScenario(h, true),
  limits: async (h) => {
    await runLimitsScenario(h, false);
    print({ type: "tool_calls", calls: h.toolCalls });
  },
  further: async (h) => {
    await runFurtherScenario(h);
    print({ type: "tool_calls", calls: h.toolCalls });
  },
  reopen: (h) => runReopenScenario(h, false),
  "reopen-stopped": (h) => runReopenScenario(h, true),
  tools: async (h) => {
    await runToolsScenario(h);
    print({ type: "tool_calls", calls: h.toolCalls });
  },
  results: async (h) => {
    await runResultsScenario(h, false);
    print({ type: "tool_calls", calls: h.toolCalls });
  },
  "results-ours": async (h) => {
    await runResultsScenario(h, true);
    print({ type: "tool_calls", calls: h.toolCalls });
  },
  subagent: runSubagentScenario,
  ask: runAskScenario,
  goals: runGoalsScenario,
  lifecycle: (h) => runLifecycleScenario(h, tap),
  pending: async (h) => {
    await runPendingScenario(h, tap);
    print({ type: "tool_calls", calls: h.toolCalls });
  },
  recovery: (h) => runRecoveryScenario(h, false),
  "recovery-tool": (h) => runRecoveryScenario(h, true),
};

try {
  await session.openThread();
  if (remote !== null) print({ type: "remote_runner", ...remote.stagedRunner() });
  await scenarios[scenario.kind]?.(session);
  await session.attempt("closed", async () => {
    await session.close("oracle scenario finished");
    session.mark("closed");
  });
} catch (error) {
  print({ type: "error", message: String(error?.stack ?? error).slice(0, 2_000) });
  try {
    await session.bundle?.transport.close("oracle scenario failed");
  } catch {}
} finally {
  const events = committedEvents(session.stateDirectory);
  for (const event of events) {
    const check = validatePrpEvent(event);
    if (!check.ok) print({ type: "schema_issue", sourceSeq: event.sourceSeq, issues: check.issues });
    print({ type: "committed", event });
  }
  for (const command of committedCommands(session.stateDirectory)) print({ type: "command", command });
  const evidence = session.bundle?.evidence() ?? null;
  print({ type: "report", modelRequests: stub.requests.length, evidence });
  // Whatever the close did, nothing of this scenario outlives it: the runner's and Codex's groups.
  for (const pid of [evidence?.runnerProcessGroupId, evidence?.providerPid, remote?.stagedRunner().pid]) {
    if (typeof pid === "number" && alive(pid)) {
      print({ type: "leftover_killed", pid });
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        process.kill(pid, "SIGKILL");
      }
    }
  }
  await stub.close();
}
