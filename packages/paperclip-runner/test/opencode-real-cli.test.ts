import { existsSync } from "node:fs";
import { startChatCompletionsStub } from "@paperclipai/test-support/chat-completions-stub";
import {
  finishTool,
  OPENCODE_HOST_DIRS,
  offersTools,
  opencodeProcessesIn,
  realOpencodeBinary,
  STUB_MODEL,
  writeOpencodeOnStub,
} from "@paperclipai/test-support/opencode-on-stub";
import { describe, expect, it, onTestFinished } from "vitest";
import { eventTypes, firstEvent, serverToolchainForFile, withWork } from "./helpers/codex-durable.js";
import {
  driveOpencode,
  expectOpencodeTurnRan,
  launchProfile,
  opencodePrepare,
  opencodeTurnSteps,
  serverProxy,
} from "./helpers/opencode-runs.js";
import { runResult } from "./helpers/opencode-scripts.js";

// The real OpenCode 1.18.29 (`opencode serve`) behind the server's own proxy, driven by our
// runner through the real control plane, its model a loopback chat-completions stub.
const toolchain = serverToolchainForFile();

const ANSWER = "hello from the stub";
/** The model's `paperclip_finish` call: the task done, the driver's one criterion satisfied. */
const FINISH = runResult({ summary: ANSWER });

describe("the real OpenCode CLI through the Codex executor and the server's own proxy", {
  timeout: 180_000,
}, () => {
  it("runs a turn whose model calls paperclip_finish, then answers, and leaves nothing behind", async () => {
    const binary = realOpencodeBinary("the real OpenCode tests");
    const hostDirsBefore = OPENCODE_HOST_DIRS.filter((dir) => existsSync(dir));
    let runWork = "";
    onTestFinished(() => {
      if (runWork === "") return;
      for (const pid of opencodeProcessesIn(binary, runWork)) process.kill(pid, "SIGKILL");
    });
    const stub = await startChatCompletionsStub([
      { when: offersTools, tool: finishTool, arguments: FINISH },
      { when: offersTools, text: ANSWER },
    ]);
    onTestFinished(() => stub.close());
    await withWork(async (work) => {
      runWork = work;
      const executable = await writeOpencodeOnStub(work, binary, stub.baseUrl);
      const profile = launchProfile(serverProxy(toolchain()), executable);
      const prepare = opencodePrepare(work, profile);
      const result = await driveOpencode(
        toolchain(),
        work,
        profile,
        opencodeTurnSteps({ ...prepare, provider: { ...(prepare.provider as object), model: STUB_MODEL } }),
      );
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
      expect(stub.remaining()).toBe(0);
      expect(JSON.stringify(stub.requests.at(-1))).toContain('\\"accepted\\":true');
    });
    expect(opencodeProcessesIn(binary, runWork)).toEqual([]);
    expect(OPENCODE_HOST_DIRS.filter((dir) => existsSync(dir))).toEqual(hostDirsBefore);
  });
});
