import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { processesWith, readCommandLine } from "@paperclipai/test-support";
import { describe, expect, it, onTestFinished } from "vitest";
import { type ChatBody, startChatCompletionsStub } from "./helpers/chat-completions-stub.js";
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
import { realOpencodeBinary, STUB_MODEL, writeOpencodeOnStub } from "./helpers/real-opencode.js";

// The real OpenCode 1.18.29 (`opencode serve`) behind the server's own proxy, driven by our
// runner through the real control plane, its model a loopback chat-completions stub.
const toolchain = serverToolchainForFile();

const ANSWER = "hello from the stub";
/** The model's `paperclip_finish` call: the task done, the driver's one criterion satisfied. */
const FINISH = runResult({ summary: ANSWER });

/** The agent's requests offer tools (a side request, a session title say, would offer none). */
const offersTools = (body: ChatBody): boolean => (body.tools?.length ?? 0) > 0;
/** OpenCode names an MCP tool after its server: the bridge's finish tool, whatever its prefix. */
const finishTool = (body: ChatBody): string =>
  body.tools?.map((tool) => tool.function.name).find((name) => name.endsWith("paperclip_finish")) ??
  "paperclip_finish (not offered)";

/** Where OpenCode writes when nobody points its dirs elsewhere. */
const HOST_DIRS = [
  path.join(os.homedir(), ".cache/opencode"),
  path.join(os.homedir(), ".config/opencode"),
  path.join(os.homedir(), ".local/share/opencode"),
  path.join(os.homedir(), ".local/state/opencode"),
  path.join(os.tmpdir(), "opencode"),
];

/**
 * This test's processes that name the OpenCode binary: those whose command line or environment
 * also names `work` (the wrapper's `TMPDIR`, the runner's paths), so another run of the same
 * toolchain's OpenCode is neither killed nor counted.
 */
function opencodeProcessesIn(binary: string, work: string): number[] {
  return processesWith(binary).filter((pid) => {
    try {
      return (
        readCommandLine(pid)?.includes(work) === true ||
        readFileSync(`/proc/${pid}/environ`, "utf8").includes(work)
      );
    } catch {
      return false;
    }
  });
}

describe("the real OpenCode CLI through the Codex executor and the server's own proxy", {
  timeout: 180_000,
}, () => {
  it("runs a turn whose model calls paperclip_finish, then answers, and leaves nothing behind", async () => {
    const binary = realOpencodeBinary();
    const hostDirsBefore = HOST_DIRS.filter((dir) => existsSync(dir));
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
    expect(HOST_DIRS.filter((dir) => existsSync(dir))).toEqual(hostDirsBefore);
  });
});
