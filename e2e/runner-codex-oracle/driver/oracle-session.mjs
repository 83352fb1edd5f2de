// The session every scenario of the Codex driver runs in: the server's transport over one
// runner, set up as the server sets it up (private Codex home, warm lifecycle, one dynamic
// tool), its thread, and turns against the model stub. Written for this repository.
import { mkdirSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { createEventCapture } from "./event-capture.mjs";
import { LONG_INSTRUCTIONS } from "./further-scenario.mjs";
import { probeMcpServerArgs } from "./mcp-probe-server.mjs";
import { stubProviderArgs } from "./model-stub.mjs";
import { createServerRequestAnswers } from "./server-request-answers.mjs";

export const RUNNER_INSTANCE_ID = "runner-codex-oracle-1";
const identity = {
  runnerInstanceId: RUNNER_INSTANCE_ID,
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

/**
 * `server` holds the server's createRunnerdCodexTransport and createRunnerdCodexAppServerArgs;
 * `log` is the driver's step log. The returned session is the toolkit the scenarios take.
 */
export function createOracleSession({ scenario, server, stub, log, remote = null }) {
  const { print, mark } = log;
  const stateDirectory = join(scenario.work, "transport");
  const workspace = join(scenario.work, "workspace");
  const codexTemp = join(scenario.work, "tmp");
  for (const dir of [stateDirectory, workspace, codexTemp]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const codexHome = join(stateDirectory, "codex-home");
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
      ? [
          "-c",
          "features.default_mode_request_user_input=true",
          "-c",
          "suppress_unstable_features_warning=true",
        ]
      : []),
    // `more`, `beyond`: Codex retries a failed model request and reconnects a cut stream once
    // (the stub's defaults retry nothing), so the events of a retry are compared too.
    ...(scenario.kind === "more" || scenario.kind === "beyond"
      ? [
          "-c",
          "model_providers.mock_provider.request_max_retries=1",
          "-c",
          "model_providers.mock_provider.stream_max_retries=1",
        ]
      : []),
    // `tools`: a stdio MCP server in Codex's config, so the model can call MCP tools.
    ...(scenario.kind === "tools" ? probeMcpServerArgs() : []),
    ...server.createRunnerdCodexAppServerArgs({ environment, codexHome, codexCommand: scenario.codex }),
  ];
  const transportOptions = {
    stateDirectory,
    sourceCodexHome: join(scenario.work, "source-codex-home"),
    codexCommand: scenario.codex,
    codexArgs,
    runnerBinary: scenario.runnerBin,
    // A remote runner: the server's remote launcher starts the staged file (remote-launch.mjs).
    ...(remote === null
      ? {}
      : { runnerBinary: remote.runnerBinary, runnerProcessLauncher: remote.runnerProcessLauncher }),
    prpIdentity: identity,
    environment,
    lifecyclePolicy: { mode: "warm", idleTimeoutMs: 600_000 },
    onDiagnostic: (message) => print({ type: "diagnostic", message }),
  };
  mkdirSync(transportOptions.sourceCodexHome, { recursive: true, mode: 0o700 });

  const events = createEventCapture(print);
  const answers = createServerRequestAnswers({
    print,
    // recovery-tool: the first call is never answered; the runner is killed while it is pending.
    neverAnswerFirstToolCall: scenario.kind === "recovery-tool",
  });
  let bundle = null;
  let threadId = "";
  let openedThread = null;
  function attach(current) {
    answers.answer(current.transport);
    events.capture(current.transport);
  }

  async function openThread() {
    bundle = server.createRunnerdCodexTransport(transportOptions);
    attach(bundle);
    const requested = performance.now();
    const opened = await bundle.transport.request("thread/start", {
      cwd: workspace,
      model: "mock-model",
      approvalPolicy: "never",
      baseInstructions:
        scenario.kind === "further" ? LONG_INSTRUCTIONS : "You are a Paperclip agent under test.",
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
    bundle = server.createRunnerdCodexTransport({
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
  /** `timeoutMs`: how long the turn may take to complete (longer for a long answer). */
  async function runTurn(name, text, steps, during, timeoutMs) {
    stub.push(...steps);
    const before = stub.requests.length;
    const requested = performance.now();
    const turn = await bundle.transport.request("turn/start", { threadId, input: [{ type: "text", text }] });
    const turnId = turn.turn.id;
    mark(`${name}:accepted`);
    if (during !== undefined) await during(turnId, before);
    await events.until(() => events.turnCompleted(turnId) !== undefined, `${name} to complete`, timeoutMs);
    const completed = events.turnCompleted(turnId);
    mark(name, {
      durationMs: performance.now() - requested,
      status: completed.params?.turn?.status ?? null,
      modelRequests: stub.requests.length - before,
    });
    return turnId;
  }

  return {
    ...log,
    stub,
    stateDirectory,
    workspace,
    notifications: events.notifications,
    until: events.until,
    turnCompleted: events.turnCompleted,
    toolCalls: answers.toolCalls,
    userInputs: answers.userInputs,
    releaseHeldToolCall: answers.releaseHeldToolCall,
    get threadId() {
      return threadId;
    },
    /** The current transport's bundle (null before the thread is opened). */
    get bundle() {
      return bundle;
    },
    openThread,
    resume: resumeTransport,
    runTurn,
    /** A request on the opened thread. */
    request: (method, params) => bundle.transport.request(method, { threadId, ...params }),
    close: (reason) => bundle.transport.close(reason),
    lastRequestText: () => JSON.stringify(stub.requests.at(-1)?.input ?? []),
  };
}
