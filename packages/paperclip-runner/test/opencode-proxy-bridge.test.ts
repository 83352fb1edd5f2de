import { describe, expect, it } from "vitest";
import {
  closeSteps,
  commandOf,
  eventTypes,
  firstEvent,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import { command } from "./helpers/command-differential.js";
import { driveOpencode, launchProfile, opencodePrepare, serverProxy } from "./helpers/opencode-runs.js";

// OpenCode through the server's real opencode-app-server-proxy.cjs and a fake `opencode serve`:
// OpenCode's question (`question.asked`) is asked of the runner (`paperclip/runtimeRequest`),
// bridged to the server as a runtime request, and the server's answer goes back to OpenCode.
// The result OpenCode proposes through the proxy's MCP bridge: `opencode-proxy-result-upstream.test.ts`.
const toolchain = serverToolchainForFile();

describe("OpenCode's questions through the server's own proxy", { timeout: 120_000 }, () => {
  it("bridges a question to a runtime request, and the server's answer reaches OpenCode's reply", async () => {
    await withWork(async (work) => {
      const proxy = serverProxy(toolchain());
      const profile = launchProfile(proxy);
      const result = await driveOpencode(toolchain(), work, profile, [
        ...command("run.prepare", "prepare", opencodePrepare(work, profile)),
        ...command("session.open", "open", { reuse: "same_session" }),
        { op: "queue", type: "turn.start", payload: { text: "ask" }, id: "turn" },
        { op: "event", type: "runtime_request.created" },
        ...command("request.resolve", "answer", {
          requestId: "$lastRuntimeRequest",
          turnId: "t",
          response: {
            schema: "paperclip.question_response.v1",
            answers: { colour: { customText: "green" }, why: { text: "calm" } },
          },
        }),
        { op: "event", type: "run.terminal" },
        ...closeSteps,
      ]);
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
      expect(firstEvent(result, "runtime_request.created").payload.request).toMatchObject({
        schema: "paperclip.runtime_request.v2",
        type: "input",
        status: "pending",
        prompt: "OpenCode needs your input",
        origin: { adapter: "opencode-server", provider: "opencode", method: "item/tool/requestUserInput" },
        input: {
          schema: "paperclip.question_set.v1",
          questions: [
            { id: "colour", answerMode: "single_select", customAnswer: { enabled: true } },
            { id: "why", answerMode: "text" },
          ],
        },
      });
      expect(commandOf(result, "answer")?.result.result).toMatchObject({ status: "delivered" });
      // OpenCode was answered with the custom text and the text, in its questions' order.
      const texts = result.committed
        .filter((event) => event.eventType === "item.completed")
        .map((event) => event.payload.text);
      expect(texts).toContain('you said [["green"],["calm"]]');
      const types = eventTypes(result.committed);
      expect(types.slice(types.indexOf("runtime_request.created"))).toEqual(
        expect.arrayContaining(["runtime_request.resolved", "turn.completed", "run.terminal"]),
      );
      expect(types).not.toContain("session.failed");
      expect(result.exits).toEqual([{ phase: "final", code: 0, signal: null }]);
    });
  });
});
