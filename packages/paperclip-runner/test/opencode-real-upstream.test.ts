import { realOpencodeBinary } from "@paperclipai/test-support/opencode-on-stub";
import { describe, expect, it } from "vitest";
import {
  type DriverResult,
  eventTypes,
  firstEvent,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { expectOpencodeTurnRan } from "./helpers/opencode-runs.js";
import { realOpencodeTurn } from "./helpers/real-opencode-turn.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Differential with the real OpenCode: the same turn (the model calls paperclip_finish, then
// answers) through upstream's Rust runner and ours, each with OpenCode 1.18.29 behind the
// server's own proxy and a fresh loopback chat-completions stub.
const toolchain = serverToolchainForFile();

const ANSWER = "hello from the stub";

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
    const upstream = await realOpencodeTurn(toolchain(), binary, ANSWER, upstreamRunner());
    const ours = await realOpencodeTurn(toolchain(), binary, ANSWER);
    expectOpencodeTurnRan(ours.result);
    expectOpencodeTurnRan(upstream.result);
    expect(outcome(ours.result)).toEqual(outcome(upstream.result));
    expect(outcome(ours.result)).toMatchObject({
      proposed: { reportedWorkDisposition: "done", summary: ANSWER },
      terminal: { provider: "opencode", runTerminalState: "succeeded" },
      resultBeforeCompletion: true,
    });
    expect({ ours: ours.remaining, upstream: upstream.remaining }).toEqual({ ours: 0, upstream: 0 });
    expect({ ours: ours.leftOpencode, upstream: upstream.leftOpencode }).toEqual({ ours: [], upstream: [] });
    // The same events; OpenCode's own timing orders the items and usage reports of its answer.
    const types = (result: DriverResult): string[] => eventTypes(result.committed);
    expect(types(ours.result).toSorted()).toEqual(types(upstream.result).toSorted());
    expect(types(ours.result).slice(-2)).toEqual(["turn.completed", "run.terminal"]);
    expect(types(upstream.result).slice(-2)).toEqual(["turn.completed", "run.terminal"]);
  });
});
