import path from "node:path";
import { describe, expect, it } from "vitest";
import { diffEventStreams, normaliseEvents } from "../src/normalise-events.js";
import { runCodexScenario, type ScenarioOutcome } from "../src/run-scenario.js";
import { bothDrives } from "../src/side-by-side.js";
import { REPO_ROOT, resolveCodexToolchain } from "../src/toolchain.js";

// A runner in a remote sandbox: the server stages one file (PAPERCLIP_RUNNER_REMOTE_BINARY_PATH)
// and starts it with its own remote launcher (createRemoteRunnerProcessLauncher): detached with
// nohup setsid, adopted through an identity marker and the process's /proc cmdline, polled and
// signalled by shell scripts. Here the sandbox's command runner is loopback (real local
// processes in a directory of the work directory), so the launch path is the server's, whole.
// Ours is our bundle alone; upstream's is its binary's launcher, staged alike.

const OUR_BUNDLE = path.join(REPO_ROOT, "packages/paperclip-runner/dist/runnerd-cli.cjs");

const STAGED_PATH = "/sandbox/.paperclip-runtime/paperclip-runner/bin/paperclip-runnerd";

/**
 * The turn went through the runner the remote launcher started. Ours runs as the staged file
 * itself (`node <staged file>`, by its shebang); upstream's staged launcher execs its binary
 * through Debian's loader, so its argv names that binary instead.
 */
function expectTurnWorked(outcome: ScenarioOutcome, runsAsStagedFile: boolean): void {
  const staged = outcome.remoteRunner;
  expect(staged?.pid, outcome.transcript.slice(-4_000)).toBeGreaterThan(0);
  expect(staged?.argv).toContain("--runner-id");
  if (runsAsStagedFile)
    expect(staged?.argv?.[1], String(staged?.argv)).toMatch(new RegExp(`${STAGED_PATH}$`));
  const failed = [...outcome.steps.values()].filter((step) => step.error !== undefined);
  expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
  expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
  expect(outcome.steps.get("plain")?.status).toBe("completed");
  expect(outcome.answer).toBe("hello from the stub");
  expect(outcome.steps.has("closed")).toBe(true);
  expect(outcome.schemaIssues).toEqual([]);
  expect(outcome.leftovers, "the close stopped the staged runner and Codex").toEqual([]);
}

describe("a runner staged as one file and started by the server's remote launcher", () => {
  it("runs a Codex turn, ours as upstream's, with the same committed stream", async () => {
    const tools = await resolveCodexToolchain();
    const [upstream, ours] = await bothDrives(
      runCodexScenario(tools, tools.upstreamRunner, "turn", { remoteRunnerFile: tools.upstreamRunner }),
      runCodexScenario(tools, OUR_BUNDLE, "turn", { remoteRunnerFile: OUR_BUNDLE }),
    );
    expectTurnWorked(upstream, false);
    expectTurnWorked(ours, true);
    const differences = diffEventStreams(normaliseEvents(upstream.events), normaliseEvents(ours.events));
    expect(differences, differences.join("\n")).toEqual([]);
  });
});
