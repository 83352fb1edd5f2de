import { describe, expect, it } from "vitest";
import { OPENCODE_QUESTION } from "../../test/helpers/opencode-question-refusals.js";
import { opencodeRequest } from "../../test/helpers/opencode-scripts.js";
import { opencodeRuntimeRequest } from "./opencode-runtime-request.js";

/** What the server's proxy forwards (its OpenCode driver's `runtime_request.created` request). */
const request = (over: Record<string, unknown> = {}): Record<string, unknown> =>
  opencodeRequest({ turnId: "turn-1", itemId: "item-1", ...over });

const questions = OPENCODE_QUESTION.questions;

describe("opencodeRuntimeRequest", () => {
  it("takes the proxy's request: its ids and question set, with or without an item id", () => {
    const taken = {
      ok: true,
      request: { requestId: "que_1", turnId: "turn-1", questionSet: OPENCODE_QUESTION },
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
    [
      "no questions",
      { request: request({ input: { ...OPENCODE_QUESTION, questions: [] } }) },
      "OpenCode question set is malformed",
    ],
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
      "OpenCode question set is malformed",
    ],
  ])("refuses %s", (_name, params, reason) => {
    expect(opencodeRuntimeRequest(params as Record<string, unknown>)).toEqual({ ok: false, reason });
  });
});
