import { existsSync } from "node:fs";
import { OPENCODE_HOST_DIRS, realOpencodeBinary } from "@paperclipai/test-support/opencode-on-stub";
import { describe, expect, it } from "vitest";
import { eventTypes, firstEvent, serverToolchainForFile } from "./helpers/codex-durable.js";
import { expectOpencodeTurnRan } from "./helpers/opencode-runs.js";
import { realOpencodeTurn } from "./helpers/real-opencode-turn.js";

// The real OpenCode 1.18.29 (`opencode serve`) behind the server's own proxy, driven by our
// runner through the real control plane, its model a loopback chat-completions stub.
const toolchain = serverToolchainForFile();

const ANSWER = "hello from the stub";

describe("the real OpenCode CLI through the Codex executor and the server's own proxy", {
  timeout: 180_000,
}, () => {
  it("runs a turn whose model calls paperclip_finish, then answers, and leaves nothing behind", async () => {
    const binary = realOpencodeBinary("the real OpenCode tests");
    const hostDirsBefore = OPENCODE_HOST_DIRS.filter((dir) => existsSync(dir));
    const { result, requests, remaining, leftOpencode } = await realOpencodeTurn(toolchain(), binary, ANSWER);
    expectOpencodeTurnRan(result);
    const types = eventTypes(result.committed);
    expect(types).not.toContain("turn.failed");
    const completed = result.committed.filter((event) => event.eventType === "item.completed");
    expect(completed.map((event) => event.payload.text)).toContain(ANSWER);
    expect(firstEvent(result, "run.result.proposed").payload).toMatchObject({
      reportedWorkDisposition: "done",
      summary: ANSWER,
      completionClaim: expect.objectContaining({ contractRevision: "rev-1", objectiveSatisfied: true }),
    });
    expect(types.indexOf("run.result.proposed")).toBeLessThan(types.indexOf("turn.completed"));
    expect(firstEvent(result, "run.terminal").payload).toMatchObject({
      provider: "opencode",
      runTerminalState: "succeeded",
    });
    expect(result.exits).toEqual([{ phase: "final", code: 0, signal: null }]);
    // Both agent requests went to the stub, the second after the bridge accepted the call.
    expect(remaining).toBe(0);
    expect(JSON.stringify(requests.at(-1))).toContain('\\"accepted\\":true');
    expect(leftOpencode).toEqual([]);
    expect(OPENCODE_HOST_DIRS.filter((dir) => existsSync(dir))).toEqual(hostDirsBefore);
  });
});
