import { describe, expect, it } from "vitest";
import { OPENCODE_QUESTION } from "../../test/helpers/opencode-question-refusals.js";
import { opencodeRequest } from "../../test/helpers/opencode-scripts.js";
import { opencodeRuntimeRequest } from "./opencode-runtime-request.js";

/** What the server's proxy forwards (its OpenCode driver's `runtime_request.created` request). */
const request = (over: Record<string, unknown> = {}): Record<string, unknown> =>
  opencodeRequest({ turnId: "turn-1", itemId: "item-1", ...over });

const questions = OPENCODE_QUESTION.questions;
const INVERTED = "OpenCode question constraints are inverted";
const SCHEMA = "OpenCode runtime request input failed the Paperclip question-set schema";
const text = (id: string, textValidation: Record<string, unknown> = {}) => ({
  id,
  prompt: "?",
  required: false,
  answerMode: "text",
  textValidation,
});
const withQuestions = (...set: Record<string, unknown>[]) => ({
  request: request({ input: { ...OPENCODE_QUESTION, questions: set } }),
});
/** One text question validated so. */
const validated = (textValidation: Record<string, unknown>) => withQuestions(text("q", textValidation));

describe("opencodeRuntimeRequest", () => {
  it("takes the proxy's request: its ids and question set, with or without an item id", () => {
    const taken = {
      ok: true,
      request: {
        requestId: "que_1",
        turnId: "turn-1",
        questionSet: OPENCODE_QUESTION,
        // Its size against the bound on open questions (`pending-input-bytes.test.ts`).
        bytes: expect.any(Number),
      },
    };
    expect(opencodeRuntimeRequest({ request: request() })).toEqual(taken);
    const { itemId: _omitted, ...noItem } = request();
    expect(opencodeRuntimeRequest({ request: noItem })).toEqual(taken);
  });

  it.each([
    [
      "params beyond the request",
      { request: request(), threadId: "t" },
      "OpenCode runtime request params contain an unknown field",
    ],
    ["no request", {}, "OpenCode runtime request is required"],
    [
      "a field beyond the driver's",
      { request: request({ actions: [] }) },
      "OpenCode runtime request contains an unknown field",
    ],
    [
      "another schema",
      { request: request({ schema: "x" }) },
      "OpenCode runtime request discriminator is invalid",
    ],
    [
      "a resolved request",
      { request: request({ status: "resolved" }) },
      "OpenCode runtime request discriminator is invalid",
    ],
    [
      "a permission request",
      { request: request({ type: "permission", input: undefined }) },
      "OpenCode runnerd bridge currently supports structured input requests only",
    ],
    [
      "an empty request id",
      { request: request({ requestId: " " }) },
      "OpenCode runtime requestId is invalid",
    ],
    ["no turn", { request: request({ turnId: undefined }) }, "OpenCode runtime request turnId is invalid"],
    ["a prompt not text", { request: request({ prompt: 5 }) }, "OpenCode runtime request prompt is invalid"],
    [
      "an item id too long",
      { request: request({ itemId: "i".repeat(161) }) },
      "OpenCode runtime request itemId is invalid",
    ],
    [
      "an origin not an object",
      { request: request({ origin: "x" }) },
      "OpenCode runtime request origin is invalid",
    ],
    ["no input", { request: request({ input: undefined }) }, "OpenCode runtime request input is required"],
    ["no questions", { request: request({ input: { ...OPENCODE_QUESTION, questions: [] } }) }, SCHEMA],
    [
      "a repeated question id",
      { request: request({ input: { ...OPENCODE_QUESTION, questions: [questions[1], questions[1]] } }) },
      "OpenCode question ids must be unique",
    ],
    [
      "a repeated option id",
      {
        request: request({
          input: {
            ...OPENCODE_QUESTION,
            questions: [{ ...questions[0], options: [questions[0].options[0], questions[0].options[0]] }],
          },
        }),
      },
      "OpenCode question option ids must be unique",
    ],
    [
      "a select question without options",
      {
        request: request({ input: { ...OPENCODE_QUESTION, questions: [{ ...questions[0], options: [] }] } }),
      },
      SCHEMA,
    ],
    ["a question beyond the schema's fields", validated({ step: 1 }), SCHEMA],
    ["an inputType of float", validated({ inputType: "float" }), SCHEMA],
    ["a minimum as text", validated({ inputType: "number", minimum: "5" }), SCHEMA],
    ["a minLength of 1.5", validated({ minLength: 1.5 }), SCHEMA],
    ["a maxLength past 100 000", validated({ maxLength: 100_001 }), SCHEMA],
    ["a pattern of 1001 characters", validated({ pattern: "a".repeat(1001) }), SCHEMA],
    ["the schema before repeated ids", withQuestions(text("a"), text("a"), text("b", { step: 1 })), SCHEMA],
    ["minLength past maxLength", validated({ minLength: 5, maxLength: 3 }), INVERTED],
    [
      "minimum past maximum, whatever the inputType",
      validated({ inputType: "text", minimum: 5, maximum: 3 }),
      INVERTED,
    ],
    ["inverted bounds before the pattern", validated({ minimum: 2, maximum: 1, pattern: "(" }), INVERTED],
    [
      "a pattern before a later question's inverted bounds",
      withQuestions(text("a", { pattern: "(" }), text("b", { minLength: 2, maxLength: 1 })),
      "OpenCode question pattern cannot compile",
    ],
    [
      "a repeated id before a later question's inverted bounds",
      withQuestions(text("a"), text("a"), text("b", { minLength: 2, maxLength: 1 })),
      "OpenCode question ids must be unique",
    ],
    [
      "inverted bounds before a later repeated id",
      withQuestions(text("b", { minLength: 2, maxLength: 1 }), text("a"), text("a")),
      INVERTED,
    ],
  ])("refuses %s", (_name, params, reason) => {
    expect(opencodeRuntimeRequest(params as Record<string, unknown>)).toEqual({ ok: false, reason });
  });

  it("takes bounds that meet, a whole-number range with no whole number in it, and a select's textValidation", () => {
    for (const params of [
      validated({ inputType: "number", minimum: 3, maximum: 3, minLength: 3, maxLength: 3 }),
      validated({ inputType: "integer", minimum: 1.2, maximum: 1.5 }),
      withQuestions({ ...questions[0], textValidation: { minLength: 1 } }),
    ])
      expect(opencodeRuntimeRequest(params)).toMatchObject({ ok: true });
  });
});
