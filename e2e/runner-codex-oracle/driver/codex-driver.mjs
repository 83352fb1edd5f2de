// Runs on Node 24 (the real server's engines): drives one runner binary (upstream's Rust
// paperclip-runnerd or ours) through the server's own createRunnerdCodexTransport, with the real
// Codex CLI against a loopback model stub, for one scenario; prints what happened as JSON lines
// (the committed PRP events last). Written for this repository; it only calls the server's exports.
import { mkdirSync, readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { readProcStat } from "@paperclipai/internal";
import {
  HELD_TOOL_BODY,
  REFUSED_TOOL_BODY,
  runEdgeScenario,
  runInterruptToolScenario,
} from "./edge-scenario.mjs";
import { startModelStub, stubProviderArgs } from "./model-stub.mjs";
import { runReopenScenario } from "./reopen-scenario.mjs";

const scenario = JSON.parse(process.argv[2]);
const vendor = join(scenario.serverDir, "node_modules/@paperclipai/server/dist/vendor/paperclip-runner");
const { createRunnerdCodexTransport, createRunnerdCodexAppServerArgs } = await import(
  pathToFileURL(join(vendor, "live/runnerd-codex-transport.js")).href
);
const { validatePrpEvent } = await import(pathToFileURL(join(vendor, "protocol/replay-contract.js")).href);

const print = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
const started = performance.now();
const mark = (step, extra = {}) => print({ type: "step", step, ms: performance.now() - started, ...extra });

const root = join(scenario.work, "transport");
const workspace = join(scenario.work, "workspace");
const codexTemp = join(scenario.work, "tmp");
for (const dir of [root, workspace, codexTemp]) mkdirSync(dir, { recursive: true, mode: 0o700 });
const codexHome = join(root, "codex-home");
const stub = await startModelStub();
// The server's own environment for the runner: a private HOME/CODEX_HOME (set by the transport)
// and a private temp dir for what Codex writes beside them. Its PATH is the server's, which in a
// deployment started by the `node` on PATH begins with this (the server's) Node.
const runnerPath = scenario.serverNodeFirstOnPath
  ? `${dirname(process.execPath)}${delimiter}${process.env.PATH}`
  : process.env.PATH;
const environment = { PATH: runnerPath, LANG: "C.UTF-8", TMPDIR: codexTemp, HOME: codexHome };
const codexArgs = [
  ...stubProviderArgs(stub.baseUrl),
  // Codex 0.156.1 offers its request_user_input tool outside Plan mode only behind this feature
  // (in Default mode it answers the model "request_user_input is unavailable in Default mode").
  // (Its warning about an under-development feature, which names the temporary Codex home, is off.)
  ...(scenario.kind === "ask"
    ? ["-c", "features.default_mode_request_user_input=true", "-c", "suppress_unstable_features_warning=true"]
    : []),
  ...createRunnerdCodexAppServerArgs({ environment, codexHome, codexCommand: scenario.codex }),
];
const identity = {
  runnerInstanceId: "runner-codex-oracle-1",
  environmentLeaseId: "lease-codex-oracle-1",
  runId: "run-codex-oracle-1",
  normalizedSessionId: "session-codex-oracle-1",
  turnId: "turn-codex-oracle-1",
  itemId: "item-codex-oracle-1",
};
const dynamicTools = [
  {
    name: "report_progress",
    description: "Reports progress on the task to the board.",
    inputSchema: {
      type: "object",
      properties: { body: { type: "string" } },
      required: ["body"],
      additionalProperties: false,
    },
  },
];
const transportOptions = {
  stateDirectory: root,
  sourceCodexHome: join(scenario.work, "source-codex-home"),
  codexCommand: scenario.codex,
  codexArgs,
  runnerBinary: scenario.runnerBin,
  prpIdentity: identity,
  environment,
  lifecyclePolicy: { mode: "warm", idleTimeoutMs: 600_000 },
  onDiagnostic: (message) => print({ type: "diagnostic", message }),
};
mkdirSync(transportOptions.sourceCodexHome, { recursive: true, mode: 0o700 });

const toolCalls = [];
// The call the server answers only once the driver releases it (after the turn was interrupted).
const heldToolCall = {};
heldToolCall.released = new Promise((resolve) => {
  heldToolCall.release = resolve;
});
const userInputs = [];
// What the board answers to Codex's question (the question set's option ids, as the server's form does).
const QUESTION_RESPONSE = {
  schema: "paperclip.question_response.v1",
  answers: { color: { selectedOptionIds: ["option-2"] } },
};
const notifications = [];
const waiters = [];
let bundle = null;
function attach(current) {
  current.transport.setServerRequestHandler(async (request) => {
    if (request.method === "item/tool/requestUserInput") {
      // The server answers a bridged question later, through resolveRuntimeRequest (request.resolve).
      userInputs.push({ id: request.id, params: request.params });
      setImmediate(() => {
        current.transport
          .resolveRuntimeRequest({ requestId: request.id, resolution: { response: QUESTION_RESPONSE } })
          .catch((error) =>
            print({ type: "diagnostic", message: `resolve failed: ${error?.message ?? error}` }),
          );
      });
      return {};
    }
    toolCalls.push({
      method: request.method,
      tool: request.params?.tool,
      arguments: request.params?.arguments,
    });
    // recovery-tool: the first call is never answered; the runner is killed while it is pending.
    if (scenario.kind === "recovery-tool" && toolCalls.length === 1) await new Promise(() => {});
    if (request.params?.arguments?.body === HELD_TOOL_BODY) await heldToolCall.released;
    if (request.params?.arguments?.body === REFUSED_TOOL_BODY) {
      return {
        success: false,
        contentItems: [{ type: "inputText", text: JSON.stringify({ refused: true }) }],
      };
    }
    return { success: true, contentItems: [{ type: "inputText", text: JSON.stringify({ recorded: true }) }] };
  });
  void (async () => {
    try {
      for await (const notification of current.transport.notifications()) {
        notifications.push(notification);
        for (const waiter of waiters.splice(0)) waiter();
      }
    } catch (error) {
      print({ type: "notifications_closed", error: String(error?.message ?? error).slice(0, 300) });
    }
  })();
}
const until = async (predicate, what, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => {
      waiters.push(resolve);
      setTimeout(resolve, 25);
    });
  }
};
const turnCompleted = (turnId) =>
  notifications.find(
    (n) => n.method === "turn/completed" && (n.params?.turn?.id ?? n.params?.turnId) === turnId,
  );
const committedEvents = () => {
  const state = JSON.parse(readFileSync(join(root, "control-plane/control-plane-state.json"), "utf8"));
  return state.committedEvents.map((entry) => entry.envelope.payload);
};
// What each command the server queued came back with (type, status, the runner's result).
const committedCommands = () => {
  const state = JSON.parse(readFileSync(join(root, "control-plane/control-plane-state.json"), "utf8"));
  return state.commands.map(({ type, status, result }) => ({ type, status, result: result?.result ?? null }));
};
const alive = (pid) => {
  const stat = readProcStat(pid);
  return stat !== undefined && !stat.zombie;
};

let threadId = "";
let openedThread = null;
async function openThread() {
  bundle = createRunnerdCodexTransport(transportOptions);
  attach(bundle);
  const requested = performance.now();
  const opened = await bundle.transport.request("thread/start", {
    cwd: workspace,
    model: "mock-model",
    approvalPolicy: "never",
    baseInstructions: "You are a Paperclip agent under test.",
    dynamicTools,
  });
  threadId = opened.thread.id;
  openedThread = opened.thread;
  mark("identity", {
    durationMs: performance.now() - requested,
    threadId: typeof threadId,
    hasSession: typeof opened.thread.sessionId === "string",
  });
}
/** A new transport on the same state, as the server builds it to resume the opened thread (a recovery, the next run). */
function resumeTransport(extra) {
  bundle = createRunnerdCodexTransport({
    ...transportOptions,
    ...extra,
    resumeDynamicTools: dynamicTools,
    // What the server's checkpoint keeps of the opened thread.
    resumeProviderSession: {
      driverSessionId: threadId,
      providerSessionId: openedThread.sessionId,
      ...(openedThread.providerIdentity === undefined
        ? {}
        : { providerIdentity: openedThread.providerIdentity }),
    },
  });
  attach(bundle);
}
async function runTurn(name, text, steps, during) {
  stub.push(...steps);
  const before = stub.requests.length;
  const requested = performance.now();
  const turn = await bundle.transport.request("turn/start", { threadId, input: [{ type: "text", text }] });
  const turnId = turn.turn.id;
  mark(`${name}:accepted`);
  if (during !== undefined) await during(turnId, before);
  await until(() => turnCompleted(turnId) !== undefined, `${name} to complete`);
  const completed = turnCompleted(turnId);
  mark(name, {
    durationMs: performance.now() - requested,
    status: completed.params?.turn?.status ?? null,
    modelRequests: stub.requests.length - before,
  });
  return turnId;
}
// A step that fails is recorded with its error; the scenario still closes the session.
async function attempt(name, body) {
  try {
    await body();
    return true;
  } catch (error) {
    print({
      type: "step",
      step: name,
      ms: performance.now() - started,
      error: String(error?.message ?? error).slice(0, 1_000),
    });
    return false;
  }
}
const lastRequestText = () => JSON.stringify(stub.requests.at(-1)?.input ?? []);

try {
  await openThread();
  if (scenario.kind === "turn" || scenario.kind === "session") {
    await attempt("plain", () =>
      runTurn("plain", "say hello", [
        { text: "hello from the stub", usage: { input_tokens: 21, output_tokens: 4 } },
      ]),
    );
    const answer = notifications.findLast(
      (n) => n.method === "item/completed" && n.params?.item?.type === "agentMessage",
    );
    print({ type: "answer", text: answer?.params?.item?.text ?? null });
  }
  if (scenario.kind === "session") {
    await attempt("tool", async () => {
      await runTurn("tool", "report progress", [
        { tool: "report_progress", arguments: { body: "half way" } },
        { text: "progress reported" },
      ]);
      print({ type: "tool_calls", calls: toolCalls });
    });
    await attempt("steer", async () => {
      await runTurn(
        "steer",
        "start long work",
        [{ text: "first answer", gate: "steer" }, { text: "steered answer" }],
        async (turnId, before) => {
          await until(() => stub.requests.length > before, "the steer turn's model request");
          await bundle.transport.request("turn/steer", {
            threadId,
            expectedTurnId: turnId,
            input: [{ type: "text", text: "also mention steering" }],
          });
          mark("steer:sent");
          stub.open("steer");
        },
      );
      print({ type: "steer_reached_model", value: lastRequestText().includes("also mention steering") });
    });
    await attempt("interrupt", () =>
      runTurn("interrupt", "work forever", [{ stall: true }], async (turnId, before) => {
        await until(() => stub.requests.length > before, "the stalled model request");
        await bundle.transport.request("turn/interrupt", { threadId, turnId });
        mark("interrupt:sent");
      }),
    );
    // The model answers HTTP 500 (Codex retries nothing here): the turn ends failed, the session goes on.
    await attempt("model-error", () =>
      runTurn("model-error", "fail please", [{ status: 500, message: "stub overloaded" }]),
    );
    await attempt("snapshot", async () => {
      const read = await bundle.transport.request("thread/read", { threadId, includeTurns: false });
      mark("snapshot", { sameThread: read.thread.id === threadId, turns: read.thread.turns.length });
    });
  } else if (scenario.kind === "edges" || scenario.kind === "interrupt-tool") {
    const toolkit = {
      runTurn,
      attempt,
      mark,
      print,
      until,
      stub,
      notifications,
      toolCalls,
      releaseHeldToolCall: () => heldToolCall.release(),
      request: (method, params) => bundle.transport.request(method, { threadId, ...params }),
    };
    await (scenario.kind === "edges" ? runEdgeScenario(toolkit) : runInterruptToolScenario(toolkit));
    print({ type: "tool_calls", calls: toolCalls });
  } else if (scenario.kind === "reopen" || scenario.kind === "reopen-stopped") {
    await runReopenScenario(
      {
        attempt,
        mark,
        runTurn,
        until,
        stub,
        threadId,
        request: (method, params) => bundle.transport.request(method, { threadId, ...params }),
        close: (reason) => bundle.transport.close(reason),
        resume: () => resumeTransport({}),
      },
      scenario.kind === "reopen-stopped",
    );
  } else if (scenario.kind === "ask") {
    // The model asks the user (request_user_input); the server's form answers "blue".
    await attempt("ask", async () => {
      await runTurn("ask", "ask me", [
        {
          tool: "request_user_input",
          arguments: {
            questions: [
              {
                id: "color",
                header: "Colour",
                question: "Which colour?",
                options: [
                  { label: "red", description: "warm" },
                  { label: "blue", description: "cool" },
                ],
              },
            ],
          },
        },
        { text: "you chose blue" },
      ]);
      print({
        type: "user_inputs",
        requests: userInputs,
        answerReachedModel: lastRequestText().includes("blue"),
      });
    });
  } else if (scenario.kind === "goals") {
    // The goal API through the server's transport (session.goal.* commands, PRP command v2):
    // a paused goal (an active one on an idle thread makes Codex start a turn by itself), read
    // back, cleared; then a budget increase, which only managed providers take.
    const goalStep = async (name, method, params) => {
      await attempt(name, async () => {
        const result = await bundle.transport.request(method, { threadId, ...params });
        mark(name, { result });
      });
    };
    await goalStep("goal-get-empty", "thread/goal/get", {});
    await goalStep("goal-set", "thread/goal/set", {
      objective: "Ship the release notes",
      status: "paused",
      tokenBudget: 5000,
    });
    await goalStep("goal-get", "thread/goal/get", {});
    await goalStep("goal-clear", "thread/goal/clear", {});
    await goalStep("goal-get-cleared", "thread/goal/get", {});
    await goalStep("budget", "session/budget/increase", { maxSessionListCostUsd: 5 });
    await attempt("snapshot", async () => {
      const read = await bundle.transport.request("thread/read", { threadId, includeTurns: false });
      mark("snapshot", { sameThread: read.thread.id === threadId });
    });
  } else if (scenario.kind === "recovery" || scenario.kind === "recovery-tool") {
    await runTurn("plain", "say hello", [
      { text: "hello before the kill", usage: { input_tokens: 30, output_tokens: 7 } },
    ]);
    // recovery: the model stalls; recovery-tool: the model asks for a tool the server never answers.
    stub.push(
      scenario.kind === "recovery"
        ? { stall: true }
        : { tool: "report_progress", arguments: { body: "pending" } },
    );
    const requests = stub.requests.length;
    const itemsCompleted = () => notifications.filter((n) => n.method === "item/completed").length;
    const itemsBefore = itemsCompleted();
    const turn = await bundle.transport.request("turn/start", {
      threadId,
      input: [{ type: "text", text: "long work" }],
    });
    await until(() => stub.requests.length > requests, "the stalled model request");
    // The kill lands at one defined point for both runners: the turn's user message is committed
    // (the server saw it) and the model has not answered.
    await until(() => itemsCompleted() > itemsBefore, "the stalled turn's committed user message");
    if (scenario.kind === "recovery-tool") await until(() => toolCalls.length === 1, "the pending tool call");
    const evidence = bundle.evidence();
    print({ type: "killing", providerAlive: alive(evidence.providerPid ?? evidence.codexPid) });
    const providerPid = evidence.providerPid ?? evidence.codexPid;
    const killedAt = performance.now();
    process.kill(evidence.runnerPid, "SIGKILL");
    await until(() => bundle.evidence().runnerExited, "the killed runner to be reaped");
    await bundle.detachControllerForRestart();
    resumeTransport({ resumeActiveTurnId: turn.turn.id });
    const read = await bundle.transport.request("thread/read", { threadId, includeTurns: false });
    mark("resumed", {
      durationMs: performance.now() - killedAt,
      sameThread: read.thread.id === threadId,
      turns: read.thread.turns,
      oldProviderAlive: alive(providerPid),
    });
    await attempt("after-recovery", () =>
      runTurn("after-recovery", "say hello again", [{ text: "hello after the kill" }]),
    );
  }
  await attempt("closed", async () => {
    await bundle.transport.close("oracle scenario finished");
    mark("closed");
  });
} catch (error) {
  print({ type: "error", message: String(error?.stack ?? error).slice(0, 2_000) });
  try {
    await bundle?.transport.close("oracle scenario failed");
  } catch {}
} finally {
  const events = committedEvents();
  for (const event of events) {
    const check = validatePrpEvent(event);
    if (!check.ok) print({ type: "schema_issue", sourceSeq: event.sourceSeq, issues: check.issues });
    print({ type: "committed", event });
  }
  for (const command of committedCommands()) print({ type: "command", command });
  const evidence = bundle?.evidence() ?? null;
  print({ type: "report", modelRequests: stub.requests.length, evidence });
  // Whatever the close did, nothing of this scenario outlives it: the runner's and Codex's groups.
  for (const pid of [evidence?.runnerProcessGroupId, evidence?.providerPid]) {
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
