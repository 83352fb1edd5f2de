import { describe, expect, it } from "vitest";
// @ts-expect-error the scenario is a plain ES module shared with the Node 24 driver
import { OURS_ALONE_RESULTS } from "../driver/results-scenario.mjs";
import { runCodexScenario } from "../src/run-scenario.js";
import { OUR_RUNNER_BIN, resolveCodexToolchain } from "../src/toolchain.js";

/**
 * Ours alone: upstream's runner drops its connection on a frame carrying a lone surrogate and is
 * sent the same frame again on every reconnection (measured: 9 deliveries in 20 s, the call never
 * settled, the turn hung), and never reads a frame over 1 MiB (docs/compatibility.md).
 */
describe("tool results with lone surrogates and of 600 000 bytes, a prompt and a steer with a lone surrogate, real Codex: ours", {
  timeout: 300_000,
}, () => {
  it("settles each call with the server's answer and runs the turns; the close succeeds", async () => {
    const tools = await resolveCodexToolchain();
    const outcome = await runCodexScenario(tools, OUR_RUNNER_BIN, "results-ours");
    const failed = [...outcome.steps.values()].filter((step) => step.error !== undefined);
    expect(failed, outcome.transcript.slice(-4_000)).toEqual([]);
    expect(outcome.fatal, outcome.transcript.slice(-4_000)).toBeUndefined();
    const steps = [
      ...OURS_ALONE_RESULTS.map((body: string) => body.replaceAll(" ", "-")),
      "lone-surrogate-text",
      "lone-surrogate-steer",
    ];
    for (const step of steps) expect(outcome.steps.get(step)?.status, step).toBe("completed");
    // Codex is sent U+FFFD for each lone surrogate (a lossy decoding), which reaches the model.
    for (const name of ["lone-surrogate-text:told", "lone-surrogate-steer:told"]) {
      expect(outcome.steps.get(name), name).toMatchObject({ reachedModel: true });
    }
    // What the model was told of each call is the server's answer (as JSON text, surrogates escaped;
    // Codex keeps the head and tail of a long one).
    const told = Object.values(outcome.modelToolOutputs);
    expect(told[0]).toBe(
      '{"contentItems":[{"text":"lone \\ud800 high and \\udc00 low","type":"inputText"}],"success":true}',
    );
    expect(told[1]?.startsWith('{"contentItems":[{"text":"start sss')).toBe(true);
    expect(told[1]?.endsWith('sss end","type":"inputText"}],"success":true}')).toBe(true);
    expect(outcome.commands.filter((command) => command.status !== "completed")).toEqual([]);
    expect(outcome.steps.get("closed")?.error).toBeUndefined();
    expect(outcome.schemaIssues).toEqual([]);
    expect(outcome.leftovers, "the close stopped the runner and Codex").toEqual([]);
  });
});
