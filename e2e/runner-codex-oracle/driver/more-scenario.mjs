// The `more` scenario of the Codex driver: turns in a row with usage and a streamed answer, a
// snapshot mid-turn, a steer while a tool call is pending, an interrupt before the model's first
// byte, a turn.start while a turn is active, and the Codex process killed mid-turn (not the
// runner). Written for this repository.
import { alive } from "./process-alive.mjs";

/** The tool body the driver's server handler answers only once the turn was steered. */
export const STEER_HELD_TOOL_BODY = "hold this until steered";

/** What the model streams in the first turn: many small deltas, after a reasoning item. */
export const STREAMED_DELTAS = Array.from({ length: 24 }, (_, index) => `part ${index + 1}; `);

/** The command the model runs through Codex's own shell tool. */
export const SHELL_COMMAND = "echo hi from the shell";

/** Waits for the model request of the turn started after `before` requests, then runs `body`. */
const onceAsked = (h, before, body) => async (turnId) => {
  await h.until(() => h.stub.requests.length > before, "the turn's model request");
  await body(turnId);
};

/** `h` is the driver's session (oracle-session.mjs). */
export async function runMoreScenario(h) {
  await h.attempt("streamed", () =>
    h.runTurn("streamed", "think, then stream", [
      {
        reasoning: "First the parts, then the whole.",
        text: STREAMED_DELTAS.join(""),
        deltas: STREAMED_DELTAS,
        usage: { input_tokens: 120, output_tokens: 30 },
      },
    ]),
  );
  await h.attempt("usage-next", () =>
    h.runTurn("usage-next", "again", [
      { text: "second in a row", usage: { input_tokens: 180, output_tokens: 12 } },
    ]),
  );
  // A richer response: the reasoning summary streamed, a web search item, and a message before a
  // tool call in the same response.
  await h.attempt("rich", () =>
    h.runTurn("rich", "search, say, then report", [
      {
        reasoning: "Search first, then report.",
        reasoningDeltas: ["Search first, ", "then report."],
        items: [
          {
            type: "web_search_call",
            id: "ws_stub_1",
            status: "completed",
            action: { type: "search", query: "paperclip runner" },
          },
        ],
        text: "Reporting now.",
        tool: "report_progress",
        arguments: { body: "searched" },
      },
      { text: "reported after searching" },
    ]),
  );
  // Codex's own shell tool: a command execution item (under the server's profile the sandbox
  // helper cannot start here, so the command fails the same way for both runners).
  await h.attempt("shell", () =>
    h.runTurn("shell", "run a command", [
      { tool: "exec_command", arguments: { cmd: SHELL_COMMAND } },
      { text: "ran it" },
    ]),
  );
  // A steer and an interrupt naming the turn that just ended: no turn is active any more.
  const ended = h.notifications.findLast((n) => n.method === "turn/completed")?.params?.turn?.id;
  for (const [name, method, params] of [
    [
      "steer-after-turn",
      "turn/steer",
      { expectedTurnId: ended, input: [{ type: "text", text: "too late" }] },
    ],
    ["interrupt-after-turn", "turn/interrupt", { turnId: ended }],
  ]) {
    const outcome = await h.request(method, params).then(
      () => ({ accepted: true }),
      (error) => ({ accepted: false, refusal: String(error?.message ?? error).slice(0, 500) }),
    );
    h.mark(name, outcome);
  }
  // Codex retries (this scenario allows one retry): an HTTP 500, then an answer; a stream cut
  // before response.completed, then an answer.
  await h.attempt("retried-500", () =>
    h.runTurn("retried-500", "answer after a retry", [
      { status: 500, message: "stub overloaded once" },
      { text: "answered on the retry" },
    ]),
  );
  await h.attempt("retried-cut", () =>
    h.runTurn("retried-cut", "answer after a reconnect", [
      { truncate: true },
      { text: "answered on the reconnect" },
    ]),
  );
  // The server reads the session while the model holds its answer back.
  await h.attempt("snapshot-mid-turn", async () => {
    const before = h.stub.requests.length;
    await h.runTurn(
      "snapshot-mid-turn",
      "wait for the snapshot",
      [{ text: "after the snapshot", gate: "snapshot" }],
      onceAsked(h, before, async (turnId) => {
        const read = await h.request("thread/read", { includeTurns: false });
        h.mark("snapshot-mid-turn:read", {
          sameThread: read.thread.id === h.threadId,
          turns: read.thread.turns.map((turn) => ({ same: turn.id === turnId, status: turn.status })),
        });
        h.stub.open("snapshot");
      }),
    );
  });
  // The steer arrives while the server has not answered the turn's tool call.
  await h.attempt("steer-tool", async () => {
    await h.runTurn(
      "steer-tool",
      "report, then be steered",
      [
        { tool: "report_progress", arguments: { body: STEER_HELD_TOOL_BODY } },
        { text: "steered after the tool" },
      ],
      async (turnId) => {
        await h.until(
          () => h.toolCalls.some((call) => call.arguments?.body === STEER_HELD_TOOL_BODY),
          "the held tool call",
        );
        await h.request("turn/steer", {
          expectedTurnId: turnId,
          input: [{ type: "text", text: "also mention the pending report" }],
        });
        h.mark("steer-tool:sent");
        h.releaseHeldToolCall(STEER_HELD_TOOL_BODY);
      },
    );
    h.print({
      type: "steer_reached_model",
      value: h.lastRequestText().includes("also mention the pending report"),
    });
  });
  // The model never sends a byte (not even a status line); the server interrupts.
  await h.attempt("interrupt-silent", async () => {
    const before = h.stub.requests.length;
    await h.runTurn(
      "interrupt-silent",
      "wait in silence",
      [{ silent: true }],
      onceAsked(h, before, (turnId) => h.request("turn/interrupt", { turnId })),
    );
  });
  // A second turn.start while a turn is active: refused; the active turn goes on.
  await h.attempt("double-start", async () => {
    const before = h.stub.requests.length;
    await h.runTurn(
      "double-start",
      "the first start",
      [{ text: "only one turn", gate: "double" }],
      onceAsked(h, before, async () => {
        const second = await h
          .request("turn/start", { input: [{ type: "text", text: "the second start" }] })
          .then(
            () => ({ accepted: true }),
            (error) => ({ accepted: false, refusal: String(error?.message ?? error).slice(0, 500) }),
          );
        h.mark("double-start:second", second);
        h.stub.open("double");
      }),
    );
  });
  await h.attempt("provider-killed", () => killProviderMidTurn(h));
  await h.attempt("after-provider-kill", () =>
    h.runTurn("after-provider-kill", "still there?", [{ text: "still here" }]),
  );
  await h.attempt("provider-killed-idle", () => killIdleProvider(h));
  await h.attempt("after-idle-kill", () =>
    h.runTurn("after-idle-kill", "and now?", [{ text: "here again" }]),
  );
}

/** The pid of the current Codex process, as the server's transport knows it. */
function providerPidOf(h) {
  const evidence = h.bundle.evidence();
  return evidence.providerPid ?? evidence.codexPid;
}

/** The Codex process dies between turns; the server's transport learns of its successor. */
async function killIdleProvider(h) {
  const providerPid = providerPidOf(h);
  process.kill(providerPid, "SIGKILL");
  const replaced = await h
    .until(() => providerPidOf(h) !== providerPid, "a new provider process", 20_000)
    .then(
      () => true,
      () => false,
    );
  h.mark("provider-killed-idle", { replaced, providerAlive: alive(providerPid) });
}

/** The Codex process dies (SIGKILL from outside, not the runner) while the model stalls a turn. */
async function killProviderMidTurn(h) {
  h.stub.push({ stall: true });
  const before = h.stub.requests.length;
  const itemsCompleted = () => h.notifications.filter((n) => n.method === "item/completed").length;
  const itemsBefore = itemsCompleted();
  const turn = await h.request("turn/start", { input: [{ type: "text", text: "work, then lose Codex" }] });
  await h.until(() => h.stub.requests.length > before, "the stalled model request");
  // The kill lands at one defined point for both runners: the turn's user message is committed.
  await h.until(() => itemsCompleted() > itemsBefore, "the stalled turn's committed user message");
  const providerPid = providerPidOf(h);
  process.kill(providerPid, "SIGKILL");
  const ended = () =>
    h.turnCompleted(turn.turn.id) !== undefined ||
    h.notifications.some((n) => n.method === "error" || n.method === "thread/closed");
  const observed = await h.until(ended, "the killed provider's turn to end", 20_000).then(
    () => "ended",
    (error) => String(error?.message ?? error),
  );
  h.mark("provider-killed", {
    observed,
    status: h.turnCompleted(turn.turn.id)?.params?.turn?.status ?? null,
    providerAlive: alive(providerPid),
    methods: [...new Set(h.notifications.slice(-12).map((n) => n.method))],
  });
}
