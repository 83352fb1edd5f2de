import {
  type CodexToolchain,
  OUR_RUNNER_BIN,
  resolveCodexToolchain,
  runCodexScenario,
  type ScenarioOutcome,
} from "@paperclipai/runner-codex-oracle/scenarios";
import type { BenchMetric, BenchSuite } from "../bench-result.js";

// The server hands its own PATH to the runner (spawnRunner's environment is the server's
// process.env), and a server started by the `node` on its PATH (Node >= 24.11, its engines) puts
// that Node first: our bin then runs on Node 24, as deployed. Upstream's runner is a native binary.
const AS_DEPLOYED = { serverNodeFirstOnPath: true } as const;

// Each repeat starts a runner, the real Codex CLI and the model stub afresh (~10 s a pair).
const REPEATS = 3;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** The step's duration, or an error naming the runner and the step that failed. */
function duration(outcome: ScenarioOutcome, step: string, runner: string): number {
  const record = outcome.steps.get(step);
  if (record === undefined || record.error !== undefined || typeof record.durationMs !== "number") {
    throw new Error(
      `${runner}: step ${step} did not complete (${record?.error ?? outcome.fatal ?? "no record"})`,
    );
  }
  return record.durationMs;
}

interface Figures {
  identity: number[];
  plain: number[];
  tool: number[];
  resumed: number[];
}

const noFigures = (): Figures => ({ identity: [], plain: [], tool: [], resumed: [] });

/** One repeat of both scenarios with one runner, its figures added to `figures`. */
async function measureOnce(
  tools: CodexToolchain,
  runnerBin: string,
  runner: string,
  figures: Figures,
): Promise<void> {
  const session = await runCodexScenario(tools, runnerBin, "session", AS_DEPLOYED);
  figures.identity.push(duration(session, "identity", runner));
  figures.plain.push(duration(session, "plain", runner));
  figures.tool.push(duration(session, "tool", runner));
  const recovery = await runCodexScenario(tools, runnerBin, "recovery", AS_DEPLOYED);
  figures.resumed.push(duration(recovery, "resumed", runner));
}

/** Ours against upstream's Rust paperclip-runnerd, both driven by the server's transport with the real Codex CLI and the same model stub. */
export const run: BenchSuite = async () => {
  const tools = await resolveCodexToolchain();
  const upstream = noFigures();
  const ours = noFigures();
  // Interleaved, so a change in the machine's load weighs on both runners alike.
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    await measureOnce(tools, tools.upstreamRunner, "upstream's runner", upstream);
    await measureOnce(tools, OUR_RUNNER_BIN, "our runner", ours);
  }
  const metric = (name: string, key: keyof Figures): BenchMetric => ({
    name,
    unit: "ms",
    higherIsBetter: false,
    ours: median(ours[key]),
    upstream: median(upstream[key]),
  });
  return {
    suite: "runner-codex",
    title: "paperclip-runnerd with the real Codex CLI (server transport, loopback model stub)",
    metrics: [
      metric("identity after thread/start (runner + Codex start, thread/start)", "identity"),
      metric("plain turn (turn/start to turn/completed)", "plain"),
      metric("tool-call turn (two model requests, one semantic tool round trip)", "tool"),
      metric("SIGKILL mid-turn to resumed thread (fresh runner, thread/resume)", "resumed"),
    ],
    notes: [
      `Median of ${REPEATS} runs each, the two runners interleaved; Codex ${"0.156.1"} (@openai/codex, linux-x64), @paperclipai/server@2026.916.1 on Node 24; upstream's runner runs through Debian 13's loader and libc; our bin runs on the server's Node 24, first on the PATH the server hands to its runners (as when the server was started by the \`node\` on its PATH).`,
    ],
  };
};
