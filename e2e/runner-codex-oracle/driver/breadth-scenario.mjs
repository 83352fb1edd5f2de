// The `breadth` scenario of the Codex driver: what an independent harness tries that the other
// scenarios leave out. Usage with cached and reasoning tokens; three model requests chained by
// tool calls; Codex's own plan tool; a turn of several input items; secret-shaped strings of many
// kinds in an answer, a reasoning summary, a user's input, a tool's result, a steer and a model
// error; the model failing inside a 200 stream (`response.failed`, `response.incomplete`) and an
// exhausted quota. Written for this repository.
import { printModelToolOutputs } from "./edge-scenario.mjs";
import { SECRET_SENTENCES } from "./secret-shapes.mjs";

/** The tool body the driver's server handler answers with a long result full of secrets. */
export const SECRET_RESULT_TOOL_BODY = "answer with secrets";

/** What the server's handler answers that call: every secret shape, then 6 000 characters. */
export const SECRET_RESULT_TEXT = `${SECRET_SENTENCES.join("")}${"board result ".repeat(460)}end`;

/** A tool result of an image after its text, as the server's handler may answer (a 1×1 PNG). */
export const IMAGE_RESULT_TOOL_BODY = "answer with an image";
export const IMAGE_RESULT_ITEMS = [
  { type: "inputText", text: "the chart:" },
  {
    type: "inputImage",
    imageUrl:
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  },
];

/** A successful tool result with no content at all. */
export const EMPTY_RESULT_TOOL_BODY = "answer with nothing";

/** What the server's handler answers for the bodies above, by body. */
export const SPECIAL_TOOL_RESULTS = new Map([
  [SECRET_RESULT_TOOL_BODY, [{ type: "inputText", text: SECRET_RESULT_TEXT }]],
  [IMAGE_RESULT_TOOL_BODY, IMAGE_RESULT_ITEMS],
  [EMPTY_RESULT_TOOL_BODY, []],
]);

/** The body of a call the server's handler never answers: pending when the session closes. */
export const NEVER_ANSWERED_TOOL_BODY = "answer after the close";

/** The plan the model hands Codex's `update_plan` tool. */
export const PLAN_ARGUMENTS = {
  explanation: "Three steps to the answer.",
  plan: [
    { step: "Read the issue", status: "completed" },
    { step: "Write the fix", status: "in_progress" },
    { step: "Run the tests", status: "pending" },
  ],
};

/** A turn's input of several items: each must reach the model. */
export const MULTI_INPUT = ["first input item", "second input item — ünïcødé 🧪", "third input item"];

/** Waits for the model request of the turn started after `before` requests, then runs `body`. */
const onceAsked = (h, before, body) => async (turnId) => {
  await h.until(() => h.stub.requests.length > before, "the turn's model request");
  await body(turnId);
};

/** `h` is the driver's session (oracle-session.mjs). */
export async function runBreadthScenario(h) {
  await h.attempt("cached-usage", () =>
    h.runTurn("cached-usage", "answer from the cache", [
      {
        text: "answered from the cache",
        usage: { input_tokens: 5_000, cached_tokens: 4_096, output_tokens: 300, reasoning_tokens: 120 },
      },
    ]),
  );
  await h.attempt("chain", () =>
    h.runTurn("chain", "report twice in a row", [
      { tool: "report_progress", arguments: { body: "first link" } },
      { tool: "report_progress", arguments: { body: "second link" } },
      { text: "both links reported" },
    ]),
  );
  await h.attempt("plan", () =>
    h.runTurn("plan", "plan, then answer", [
      { tool: "update_plan", arguments: PLAN_ARGUMENTS },
      { text: "planned" },
    ]),
  );
  await h.attempt("multi-input", () => multiInputTurn(h));
  await h.attempt("secret-answer", () =>
    h.runTurn("secret-answer", "answer with secrets", [
      {
        reasoning: SECRET_SENTENCES.slice(0, 3).join(""),
        reasoningDeltas: SECRET_SENTENCES.slice(0, 3),
        text: SECRET_SENTENCES.join(""),
        deltas: SECRET_SENTENCES,
      },
    ]),
  );
  await h.attempt("secret-input", () =>
    h.runTurn("secret-input", `keep these safe:\n${SECRET_SENTENCES.join("")}`, [{ text: "kept safe" }]),
  );
  await h.attempt("secret-result", () =>
    h.runTurn("secret-result", "report and read the board's answer", [
      { tool: "report_progress", arguments: { body: SECRET_RESULT_TOOL_BODY } },
      { text: "read the answer" },
    ]),
  );
  await h.attempt("image-result", () =>
    h.runTurn("image-result", "report and look at the chart", [
      { tool: "report_progress", arguments: { body: IMAGE_RESULT_TOOL_BODY } },
      { text: "saw the chart" },
    ]),
  );
  await h.attempt("empty-result", () =>
    h.runTurn("empty-result", "report and expect nothing back", [
      { tool: "report_progress", arguments: { body: EMPTY_RESULT_TOOL_BODY } },
      { text: "nothing came back" },
    ]),
  );
  printModelToolOutputs(h);
  // What the server's transport reads back of the last turn from the committed stream.
  await h.attempt("history", async () => {
    const turns = await h.request("thread/turns/list", {});
    const lastTurnId = turns.data.at(-1)?.id;
    const items = await h.request("thread/items/list", { turnId: lastTurnId });
    h.print({ type: "history", turns: turns.data, items: items.data });
    h.mark("history", { turns: turns.data.length, items: items.data.length });
  });
  await h.attempt("secret-steer", async () => {
    const before = h.stub.requests.length;
    await h.runTurn(
      "secret-steer",
      "wait for the steer",
      [{ text: "held for the steer", gate: "secret-steer" }, { text: "after the secret steer" }],
      onceAsked(h, before, async (turnId) => {
        await h.request("turn/steer", {
          expectedTurnId: turnId,
          input: [{ type: "text", text: `use this: ${SECRET_SENTENCES.slice(3, 6).join("")}` }],
          correlationId: "steer-correlation-1",
        });
        // A second steer queued behind the first, before the model answers: both reach it.
        await h.request("turn/steer", {
          expectedTurnId: turnId,
          input: [{ type: "text", text: "and a second steer" }],
        });
        h.mark("secret-steer:sent");
        h.stub.open("secret-steer");
      }),
    );
  });
  // A reasoning item with encrypted content only (no summary), then a message whose text is
  // annotated with a citation.
  await h.attempt("encrypted-reasoning", () =>
    h.runTurn("encrypted-reasoning", "think privately, then cite", [
      {
        items: [
          { type: "reasoning", id: "rs_encrypted", summary: [], encrypted_content: "gAAAAABo-encrypted" },
          {
            type: "message",
            role: "assistant",
            id: "msg_cited",
            content: [
              {
                type: "output_text",
                text: "See the docs [1].",
                annotations: [
                  {
                    type: "url_citation",
                    url: "https://example.com/docs",
                    title: "Docs",
                    start_index: 13,
                    end_index: 16,
                  },
                ],
              },
            ],
          },
        ],
        noMessage: true,
      },
    ]),
  );
  // The model refuses: a message whose only content is a refusal part.
  await h.attempt("refusal", () =>
    h.runTurn("refusal", "do something forbidden", [
      {
        items: [
          {
            type: "message",
            role: "assistant",
            id: "msg_refusal",
            content: [{ type: "refusal", refusal: "I can't help with that." }],
          },
        ],
        noMessage: true,
      },
    ]),
  );
  // The model fails inside a 200 stream (this scenario lets Codex retry nothing).
  await h.attempt("failed-in-stream", () =>
    h.runTurn("failed-in-stream", "answer", [
      { failed: { code: "server_error", message: `The model failed; ${SECRET_SENTENCES[1].trim()}` } },
    ]),
  );
  await h.attempt("incomplete", () =>
    h.runTurn("incomplete", "answer", [{ incomplete: "max_output_tokens" }]),
  );
  await h.attempt("quota", () =>
    h.runTurn("quota", "answer", [
      { status: 429, message: "You exceeded your current quota.", code: "insufficient_quota" },
    ]),
  );
  await h.attempt("after-stream-failures", () =>
    h.runTurn("after-stream-failures", "still there?", [{ text: "still here" }]),
  );
  // The context window exceeded inside the stream: Codex compacts the thread before the next
  // turn's request (the stub's first answer is the summary), then asks the model.
  await h.attempt("context-in-stream", () =>
    h.runTurn("context-in-stream", "answer", [
      {
        failed: {
          code: "context_length_exceeded",
          message: "Your input exceeds the context window of this model.",
        },
      },
    ]),
  );
  await h.attempt("compacted", () =>
    h.runTurn("compacted", "go on after the compaction", [
      { text: "Summary: the board asked for reports; all were made." },
      { text: "still here after the compaction" },
    ]),
  );
  // Left for the close: a turn whose tool call the server never answers (`turn.stop`, drain, suspend).
  await h.attempt("tool-at-close", async () => {
    h.stub.push({ tool: "report_progress", arguments: { body: NEVER_ANSWERED_TOOL_BODY } }, { stall: true });
    await h.request("turn/start", { input: [{ type: "text", text: "report until closed" }] });
    await h.until(
      () => h.toolCalls.some((call) => call.arguments?.body === NEVER_ANSWERED_TOOL_BODY),
      "the call left pending",
    );
    h.mark("tool-at-close");
  });
}

/** A turn whose input is several text items; records whether each reached the model. */
async function multiInputTurn(h) {
  h.stub.push({ text: "read all three" });
  const before = h.stub.requests.length;
  const turn = await h.request("turn/start", {
    input: MULTI_INPUT.map((text) => ({ type: "text", text })),
  });
  await h.until(() => h.turnCompleted(turn.turn.id) !== undefined, "the multi-input turn to complete");
  const told = JSON.stringify(h.stub.requests.at(-1)?.input ?? []);
  h.mark("multi-input", {
    status: h.turnCompleted(turn.turn.id)?.params?.turn?.status ?? null,
    modelRequests: h.stub.requests.length - before,
    reachedModel: MULTI_INPUT.map((text) => told.includes(JSON.stringify(text).slice(1, -1))),
  });
}
