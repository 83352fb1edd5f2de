// What the driver, in the server's place, answers the runner's server requests: dynamic tool
// calls (recorded; some held or refused on purpose) and Codex's questions to the user (answered
// later, as the server's form does). Written for this repository.
import { THROWN_TOOL_BODY } from "./beyond-scenario.mjs";
import { NEVER_ANSWERED_TOOL_BODY, SPECIAL_TOOL_RESULTS } from "./breadth-scenario.mjs";
import { HELD_TOOL_BODY, REFUSED_TOOL_BODY } from "./edge-scenario.mjs";
import { STEER_HELD_TOOL_BODY } from "./more-scenario.mjs";
import { DRAIN_HELD_BODY, SUSPEND_HELD_BODY } from "./pending-scenario.mjs";
import { RESULT_ITEMS } from "./results-scenario.mjs";

/** What the board answers to Codex's question (the question set's option ids, as the server's form does). */
const QUESTION_RESPONSE = {
  schema: "paperclip.question_response.v1",
  answers: { color: { selectedOptionIds: ["option-2"] } },
};

/**
 * `answer(transport)` installs the handler on a transport. `neverAnswerFirstToolCall`: the
 * first tool call stays pending for good (the runner is killed while it is).
 */
export function createServerRequestAnswers({ print, neverAnswerFirstToolCall }) {
  const toolCalls = [];
  const userInputs = [];
  // The calls the server answers only once the driver releases them (after the turn was
  // interrupted; after a steer; after a drain or a suspend), by body.
  const held = new Map(
    [HELD_TOOL_BODY, STEER_HELD_TOOL_BODY, DRAIN_HELD_BODY, SUSPEND_HELD_BODY].map((body) => {
      let release = () => {};
      const released = new Promise((resolve) => {
        release = resolve;
      });
      return [body, { release, released }];
    }),
  );
  function answer(transport) {
    transport.setServerRequestHandler(async (request) => {
      if (request.method === "item/tool/requestUserInput") {
        // The server answers a bridged question later, through resolveRuntimeRequest (request.resolve).
        userInputs.push({ id: request.id, params: request.params });
        setImmediate(() => {
          transport
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
      if (neverAnswerFirstToolCall && toolCalls.length === 1) await new Promise(() => {});
      if (request.params?.arguments?.body === NEVER_ANSWERED_TOOL_BODY) await new Promise(() => {});
      await held.get(request.params?.arguments?.body)?.released;
      if (request.params?.arguments?.body === THROWN_TOOL_BODY) throw new Error("the board is unavailable");
      if (request.params?.arguments?.body === REFUSED_TOOL_BODY) {
        return {
          success: false,
          contentItems: [{ type: "inputText", text: JSON.stringify({ refused: true }) }],
        };
      }
      const special =
        SPECIAL_TOOL_RESULTS.get(request.params?.arguments?.body) ??
        RESULT_ITEMS.get(request.params?.arguments?.body);
      if (special !== undefined) return { success: true, contentItems: special };
      return {
        success: true,
        contentItems: [{ type: "inputText", text: JSON.stringify({ recorded: true }) }],
      };
    });
  }
  return {
    toolCalls,
    userInputs,
    answer,
    releaseHeldToolCall: (body = HELD_TOOL_BODY) => held.get(body)?.release(),
  };
}
