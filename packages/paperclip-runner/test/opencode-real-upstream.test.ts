import { startChatCompletionsStub } from "@paperclipai/test-support/chat-completions-stub";
import {
  finishTool,
  offersTools,
  opencodeProcessesIn,
  realOpencodeBinary,
  STUB_MODEL,
  writeOpencodeOnStub,
} from "@paperclipai/test-support/opencode-on-stub";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  type DriverResult,
  eventTypes,
  firstEvent,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import {
  driveOpencode,
  expectOpencodeTurnRan,
  launchProfile,
  opencodePrepare,
  opencodeTurnSteps,
  serverProxy,
} from "./helpers/opencode-runs.js";
import { runResult } from "./helpers/opencode-scripts.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Differential with the real OpenCode: the same turn (the model calls paperclip_finish, then
// answers) through upstream's Rust runner and ours, each with OpenCode 1.18.29 behind the
// server's own proxy and a fresh loopback chat-completions stub.
const toolchain = serverToolchainForFile();

const ANSWER = "hello from the stub";

/** One real-OpenCode turn through `runnerBin` (ours when undefined); also what the stub was asked. */
async function realTurn(
  binary: string,
  runnerBin?: string,
): Promise<{ result: DriverResult; requests: number }> {
  const stub = await startChatCompletionsStub([
    { when: offersTools, tool: finishTool, arguments: runResult({ summary: ANSWER }) },
    { when: offersTools, text: ANSWER },
  ]);
  try {
    return await withWork(async (work) => {
      onTestFinished(() => {
        for (const pid of opencodeProcessesIn(binary, work)) process.kill(pid, "SIGKILL");
      });
      const executable = await writeOpencodeOnStub(work, binary, stub.baseUrl);
      const profile = launchProfile(serverProxy(toolchain()), executable);
      const prepare = opencodePrepare(work, profile);
      const steps = opencodeTurnSteps({
        ...prepare,
        provider: { ...(prepare.provider as object), model: STUB_MODEL },
      });
      const result = await driveOpencode(toolchain(), work, profile, steps, runnerBin);
      expect(opencodeProcessesIn(binary, work)).toEqual([]);
      return { result, requests: stub.requests.length - stub.remaining() };
    });
  } finally {
    await stub.close();
  }
}

/** What a turn's stream shows, with the run's own ids and times left out. */
function outcome(result: DriverResult): unknown {
  const proposed = firstEvent(result, "run.result.proposed").payload as Record<string, unknown>;
  const terminal = firstEvent(result, "run.terminal").payload as Record<string, unknown>;
  return {
    failure: result.failure,
    invalid: result.invalid,
    exits: result.exits,
    proposed: {
      reportedWorkDisposition: proposed.reportedWorkDisposition,
      summary: proposed.summary,
      completionClaim: proposed.completionClaim,
    },
    terminal: { provider: terminal.provider, runTerminalState: terminal.runTerminalState },
    resultBeforeCompletion:
      eventTypes(result.committed).indexOf("run.result.proposed") <
      eventTypes(result.committed).indexOf("turn.completed"),
  };
}

describe("the real OpenCode CLI: upstream's runner and ours", { timeout: 240_000 }, () => {
  it("run the same turn to the same result, terminal state and exits", async () => {
    const binary = realOpencodeBinary("the real OpenCode differential");
    const upstream = await realTurn(binary, upstreamRunner());
    const ours = await realTurn(binary);
    expectOpencodeTurnRan(ours.result);
    expectOpencodeTurnRan(upstream.result);
    expect(outcome(ours.result)).toEqual(outcome(upstream.result));
    expect(outcome(ours.result)).toMatchObject({
      proposed: { reportedWorkDisposition: "done", summary: ANSWER },
      terminal: { provider: "opencode", runTerminalState: "succeeded" },
      resultBeforeCompletion: true,
    });
    expect({ ours: ours.requests, upstream: upstream.requests }).toEqual({ ours: 2, upstream: 2 });
    // The same events; OpenCode's own timing orders the items and usage reports of its answer.
    const types = (result: DriverResult): string[] => eventTypes(result.committed);
    expect(types(ours.result).toSorted()).toEqual(types(upstream.result).toSorted());
    expect(types(ours.result).slice(-2)).toEqual(["turn.completed", "run.terminal"]);
    expect(types(upstream.result).slice(-2)).toEqual(["turn.completed", "run.terminal"]);
  });
});
