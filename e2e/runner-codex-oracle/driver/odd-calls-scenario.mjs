// The `odd-calls` scenario of the Codex driver: tool calls a model gets wrong in ways the other
// scenarios leave out. Arguments that are JSON but no object (an array, null, a string, a
// number); two calls of one call id in one response; a call of a known and of an unknown tool
// in one response. Written for this repository.
import { printModelToolOutputs } from "./edge-scenario.mjs";

/** Arguments that parse as JSON but are no object, by step name. */
export const NON_OBJECT_ARGUMENTS = {
  "array-arguments": "[1,2]",
  "null-arguments": "null",
  "string-arguments": '"just text"',
  "number-arguments": "42",
};

/** `h` is the driver's session (oracle-session.mjs). */
export async function runOddCallsScenario(h) {
  for (const [name, rawArguments] of Object.entries(NON_OBJECT_ARGUMENTS)) {
    await h.attempt(name, () =>
      h.runTurn(name, "report with odd arguments", [
        { tools: [{ tool: "report_progress", rawArguments }] },
        { text: `after ${name}` },
      ]),
    );
  }
  await h.attempt("duplicate-same-input", () =>
    h.runTurn("duplicate-same-input", "report twice under one id, the same", [
      {
        tools: [
          { tool: "report_progress", arguments: { body: "same of one id" }, callId: "call_stub_twin" },
          { tool: "report_progress", arguments: { body: "same of one id" }, callId: "call_stub_twin" },
        ],
      },
      { text: "after the twins" },
    ]),
  );
  await h.attempt("duplicate-call-id", () =>
    h.runTurn("duplicate-call-id", "report twice under one id", [
      {
        tools: [
          { tool: "report_progress", arguments: { body: "first of one id" }, callId: "call_stub_same" },
          { tool: "report_progress", arguments: { body: "second of one id" }, callId: "call_stub_same" },
        ],
      },
      { text: "after the duplicate" },
    ]),
  );
  // The next turn's calls reuse the ids of the last two turns' (one with its input, one with another).
  await h.attempt("reused-across-turns", () =>
    h.runTurn("reused-across-turns", "report under old ids", [
      {
        tools: [
          { tool: "report_progress", arguments: { body: "same of one id" }, callId: "call_stub_twin" },
          { tool: "report_progress", arguments: { body: "a third input" }, callId: "call_stub_same" },
        ],
      },
      { text: "after the old ids" },
    ]),
  );
  await h.attempt("known-and-unknown", () =>
    h.runTurn("known-and-unknown", "report and use a missing tool", [
      {
        tools: [
          { tool: "report_progress", arguments: { body: "the known one" } },
          { tool: "delete_everything", arguments: { scope: "all" } },
        ],
      },
      { text: "after the pair" },
    ]),
  );
  await h.attempt("after-odd-calls", () =>
    h.runTurn("after-odd-calls", "still there?", [{ text: "still here" }]),
  );
  printModelToolOutputs(h);
  // Every output the model was told, in order (two calls of one id have two), from the last request's history.
  const history = h.stub.requests.at(-1)?.input ?? [];
  h.print({
    type: "model_tool_output_list",
    outputs: history
      .filter((item) => item.type === "function_call_output")
      .map((item) => [item.call_id, item.output]),
  });
}
