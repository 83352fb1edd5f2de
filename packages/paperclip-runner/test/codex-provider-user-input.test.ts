import { describe, expect, it } from "vitest";
import {
  closeSteps,
  commandOf,
  driveCodexRunner,
  eventTypes,
  firstEvent,
  openSteps,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import { COLOR_WHY_QUESTIONS } from "./helpers/question-response-refusals.js";

const toolchain = serverToolchainForFile();

/** The runtime request the runner committed for the question (its id is known once committed). */
const LAST_REQUEST = "$lastRuntimeRequest";

function resolveStep(id: string, answers: Record<string, unknown>) {
  return {
    op: "queue",
    type: "request.resolve",
    id,
    payload: {
      requestId: LAST_REQUEST,
      turnId: "turn-codex-1",
      response: { schema: "paperclip.question_response.v1", answers },
    },
  } as const;
}

describe("Codex asking the user (item/tool/requestUserInput) through the server's control plane", {
  timeout: 120_000,
}, () => {
  it("commits the question set as a runtime request, refuses a wrong answer, delivers request.resolve's answers", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work),
        { op: "queue", type: "turn.start", payload: { text: "ask" }, id: "turn" },
        { op: "event", type: "runtime_request.created" },
        resolveStep("wrong", { color: { selectedOptionIds: ["option-9"] } }),
        { op: "command", id: "wrong" },
        resolveStep("resolve", {
          color: { selectedOptionIds: ["option-2"] },
          why: { text: "it is calm" },
        }),
        { op: "command", id: "resolve" },
        { op: "event", type: "run.terminal" },
        ...closeSteps,
      ]);
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
      const created = firstEvent(result, "runtime_request.created");
      expect(created.priority).toBe(0);
      // Upstream's form of the id (a digest under the executor's random scope: runtime-request-id.test.ts).
      const REQUEST_ID = String((created.payload.request as { requestId?: unknown }).requestId);
      expect(REQUEST_ID).toMatch(/^runtime-request-[0-9a-f]{64}$/);
      expect(created.payload.request).toEqual({
        schema: "paperclip.runtime_request.v2",
        requestKind: "runtime",
        requestId: REQUEST_ID,
        type: "input",
        status: "pending",
        prompt: "Codex input",
        input: {
          schema: "paperclip.question_set.v1",
          title: "Codex input",
          submitLabel: "Submit answers",
          // A Codex text question carries an empty option list, as upstream's runner sends it.
          questions: COLOR_WHY_QUESTIONS.map((question) =>
            question.answerMode === "text" ? { ...question, options: [] } : question,
          ),
        },
        origin: { adapter: "codex-app-server", provider: "codex", method: "item/tool/requestUserInput" },
      });
      // Refused as upstream's runner refuses it (the questions in order: color's option first).
      expect(commandOf(result, "wrong")?.status).toBe("failed");
      expect(commandOf(result, "wrong")?.result.result).toEqual({
        code: "command_execution_failed",
        message: "Codex runtime response failed: selected option is not available",
      });
      expect(commandOf(result, "resolve")?.result.result).toEqual({
        status: "delivered",
        requestId: REQUEST_ID,
      });
      expect(firstEvent(result, "runtime_request.resolved").payload).toEqual({
        provider: "codex",
        requestId: REQUEST_ID,
        status: "delivered",
      });
      // Codex got the chosen label and the typed text, once.
      const answers = result.providerLog.filter((record) => record.kind === "input_answer");
      expect(answers).toEqual([
        {
          kind: "input_answer",
          answer: { answers: { color: { answers: ["blue"] }, why: { answers: ["it is calm"] } } },
        },
      ]);
      const types = eventTypes(result.committed);
      expect(types.indexOf("runtime_request.resolved")).toBeGreaterThan(
        types.indexOf("runtime_request.created"),
      );
      expect(types).toContain("turn.completed");
    });
  });
});
