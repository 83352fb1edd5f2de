// The `edges` scenario of the Codex driver: what a model does beyond a plain answer and one
// tool call, and a close while a turn is in flight. Written for this repository.

/** The tool body the driver's server handler refuses (`success:false`): a tool result that is an error. */
export const REFUSED_TOOL_BODY = "please refuse this";

/** The tool body the driver's server handler answers only when released: a call pending at an interrupt. */
export const HELD_TOOL_BODY = "hold this until released";

/** Secret-shaped strings the model writes: each must come out of the runner redacted. */
export const SECRET_OPENAI = `sk-proj-${"A1b2C3d4E5".repeat(4)}`;
export const SECRET_GITHUB = `ghp_${"Z9y8X7w6V5".repeat(4).slice(0, 36)}`;

/** An assistant answer longer than the events' 4000-character bound, with both secrets in it, as the model streams it. */
export const LONG_ANSWER_DELTAS = [
  `The token is ${SECRET_GITHUB}. `,
  "lorem ipsum dolor sit amet ".repeat(80),
  `The key is ${SECRET_OPENAI}. `,
  "consectetur adipiscing elit ".repeat(80),
  "End.",
];

/**
 * Runs the scenario's turns; `h` is the driver's toolkit (runTurn, attempt, mark, print, until,
 * stub, notifications, request). Ends with a turn whose model stalls, left in flight for the
 * driver's close (`turn.stop`, `runner.drain`, `runner.suspend` with the turn active).
 */
export async function runEdgeScenario(h) {
  await h.attempt("parallel", () =>
    h.runTurn("parallel", "report twice", [
      {
        tools: [
          { tool: "report_progress", arguments: { body: "first of two" } },
          { tool: "report_progress", arguments: { body: "second of two" } },
        ],
      },
      { text: "both reported" },
    ]),
  );
  await h.attempt("tool-error", () =>
    h.runTurn("tool-error", "report, the board refuses", [
      { tool: "report_progress", arguments: { body: REFUSED_TOOL_BODY } },
      { text: "the board refused" },
    ]),
  );
  // A tool the thread never offered: Codex answers the model itself, the runner sees no call.
  await h.attempt("unknown-tool", () =>
    h.runTurn("unknown-tool", "use a tool you do not have", [
      { tool: "delete_everything", arguments: { scope: "all" } },
      { text: "that tool does not exist" },
    ]),
  );
  // A tool input with a credential in it.
  await h.attempt("secret-tool", () =>
    h.runTurn("secret-tool", "report the key", [
      { tool: "report_progress", arguments: { body: `the key is ${SECRET_OPENAI}` } },
      { text: "reported the key" },
    ]),
  );
  // A tool input its schema refuses (`body` missing, an unknown field): denied before the control plane sees it.
  await h.attempt("invalid-input", () =>
    h.runTurn("invalid-input", "report without a body", [
      { tool: "report_progress", arguments: { text: "no body" } },
      { text: "the input was refused" },
    ]),
  );
  await h.attempt("long-answer", () =>
    h.runTurn("long-answer", "think, then answer at length", [
      {
        reasoning: `I should not repeat ${SECRET_GITHUB} but I will.`,
        text: LONG_ANSWER_DELTAS.join(""),
        deltas: LONG_ANSWER_DELTAS,
        usage: { input_tokens: 400, output_tokens: 1200 },
      },
    ]),
  );
  const answer = h.notifications.findLast(
    (n) => n.method === "item/completed" && n.params?.item?.type === "agentMessage",
  );
  h.print({ type: "answer", text: answer?.params?.item?.text ?? null });
  printModelToolOutputs(h);
  // The model's stream ends before response.completed (Codex retries nothing here).
  await h.attempt("truncated", () =>
    h.runTurn("truncated", "answer, then lose the line", [{ truncate: true }]),
  );
  await h.attempt("rate-limited", () =>
    h.runTurn("rate-limited", "answer", [{ status: 429, message: "slow down" }]),
  );
  await h.attempt("context-exceeded", () =>
    h.runTurn("context-exceeded", "answer", [
      { status: 400, message: "Your input exceeds the context window.", code: "context_length_exceeded" },
    ]),
  );
  await h.attempt("after-failures", () =>
    h.runTurn("after-failures", "still there?", [{ text: "still here" }]),
  );
  // Left in flight: the model stalls, and the driver closes the session while the turn is active.
  await h.attempt("in-flight", async () => {
    h.stub.push({ stall: true });
    const requests = h.stub.requests.length;
    const items = () => h.notifications.filter((n) => n.method === "item/completed").length;
    const itemsBefore = items();
    await h.request("turn/start", { input: [{ type: "text", text: "work until closed" }] });
    await h.until(() => h.stub.requests.length > requests, "the stalled model request");
    await h.until(() => items() > itemsBefore, "the in-flight turn's committed user message");
    h.mark("in-flight");
  });
}

/** Prints what the model was told of each tool call so far (Codex's function_call_output items). */
export function printModelToolOutputs(h) {
  const outputs = new Map();
  for (const request of h.stub.requests) {
    for (const item of request.input ?? []) {
      if (item.type === "function_call_output") outputs.set(item.call_id, item.output);
    }
  }
  h.print({ type: "model_tool_outputs", outputs: Object.fromEntries(outputs) });
}

/**
 * The `interrupt-tool` scenario: a turn interrupted while the server has not answered a tool
 * call, the server's answer arriving after the turn ended; then the next turn, and the close.
 */
export async function runInterruptToolScenario(h) {
  // The turn is interrupted while the server has not answered a tool call; its answer comes after.
  // Upstream's runner answers Codex's pending call (failed) right before the interrupt, and Codex
  // sometimes takes that answer first and asks the model again: that request stalls until the
  // interrupt, so it adds nothing to the stream but Codex's record of the failed call
  // (src/codex-cancelled-tool-call.ts), and what no request took is dropped after the turn.
  await h.attempt("interrupt-tool", () =>
    h.runTurn(
      "interrupt-tool",
      "report, then be interrupted",
      [{ tool: "report_progress", arguments: { body: HELD_TOOL_BODY } }, { stall: true }],
      async (turnId) => {
        await h.until(
          () => h.toolCalls.some((call) => call.arguments?.body === HELD_TOOL_BODY),
          "the held tool call",
        );
        await h.request("turn/interrupt", { turnId });
        h.mark("interrupt-tool:sent");
      },
    ),
  );
  h.stub.discard();
  h.releaseHeldToolCall();
  await h.attempt("after-interrupt", () =>
    h.runTurn("after-interrupt", "still there?", [{ text: "still here" }]),
  );
}
