import { type ChatBody, startChatCompletionsStub } from "@paperclipai/test-support/chat-completions-stub";
import {
  finishTool,
  offersTools,
  opencodeProcessesIn,
  STUB_MODEL,
  writeOpencodeOnStub,
} from "@paperclipai/test-support/opencode-on-stub";
import { type DriverResult, type ServerToolchain, withWork } from "./codex-durable.js";
import {
  driveOpencode,
  launchProfile,
  opencodePrepare,
  opencodeTurnSteps,
  serverProxy,
} from "./opencode-runs.js";
import { runResult } from "./opencode-scripts.js";

/** What one real-OpenCode turn left behind. */
export interface RealOpencodeTurn {
  readonly result: DriverResult;
  /** Every request the stub received, in arrival order. */
  readonly requests: readonly ChatBody[];
  /** Steps of the stub's script no request took. */
  readonly remaining: number;
  /** OpenCode processes of the turn still there once the run ended (killed since). */
  readonly leftOpencode: readonly number[];
}

/**
 * One turn of the real OpenCode `binary` (behind the server's own proxy, its model a fresh
 * loopback chat-completions stub) through `runnerBin` (ours when undefined): the model calls
 * `paperclip_finish` with `answer` as the summary, then answers `answer`.
 */
export async function realOpencodeTurn(
  tools: ServerToolchain,
  binary: string,
  answer: string,
  runnerBin?: string,
): Promise<RealOpencodeTurn> {
  const stub = await startChatCompletionsStub([
    { when: offersTools, tool: finishTool, arguments: runResult({ summary: answer }) },
    { when: offersTools, text: answer },
  ]);
  try {
    return await withWork(async (work) => {
      let leftOpencode: number[] = [];
      try {
        const executable = await writeOpencodeOnStub(work, binary, stub.baseUrl);
        const profile = launchProfile(serverProxy(tools), executable);
        const prepare = opencodePrepare(work, profile);
        const steps = opencodeTurnSteps({
          ...prepare,
          provider: { ...(prepare.provider as object), model: STUB_MODEL },
        });
        const result = await driveOpencode(tools, work, profile, steps, runnerBin);
        leftOpencode = opencodeProcessesIn(binary, work);
        return { result, requests: [...stub.requests], remaining: stub.remaining(), leftOpencode };
      } finally {
        for (const pid of opencodeProcessesIn(binary, work)) process.kill(pid, "SIGKILL");
      }
    });
  } finally {
    await stub.close();
  }
}
