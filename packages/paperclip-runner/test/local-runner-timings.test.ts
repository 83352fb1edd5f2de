import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseFlags } from "../src/cli/flags.js";
import { controllerLines } from "../src/local/controller-lines.js";
import { harnessLauncher } from "../src/local/harness-launcher.js";
import { readLocalOptions } from "../src/local/local-options.js";
import { DEFAULT_TIMINGS, LocalRunner } from "../src/local/local-runner.js";
import { memoryStateStore } from "../src/state/state-store.js";
import { COMMAND_SCHEMA, IDS, tempDir, type WireEvent, writeScript } from "./local-controller.js";

/**
 * The runner's grace periods, shortened so their expiry is observable in a test;
 * in-process because the bin keeps the production timings. The harness is still
 * the real scripted harness process.
 */
async function runWithTimings(
  script: unknown,
  timings: Partial<typeof DEFAULT_TIMINGS>,
): Promise<WireEvent[]> {
  const path = writeScript(tempDir("timings"), script);
  const options = readLocalOptions(parseFlags([...IDS, "--fake-harness", "--script", path]), process.env);
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let output = "";
  stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const runner = new LocalRunner(
    memoryStateStore(options.binding),
    harnessLauncher(options, process.env),
    stdout,
    { ...DEFAULT_TIMINGS, ...timings },
  );
  const commands = ["run.prepare", "session.open", "turn.start"].map((type, index) =>
    JSON.stringify({
      schema: COMMAND_SCHEMA,
      commandId: `c${index + 1}`,
      controllerSeq: index + 1,
      type,
      payload: {},
    }),
  );
  stdin.write(`${commands.join("\n")}\n`);
  const input = controllerLines(stdin);
  expect(await runner.run(input.lines)).toBe(0);
  input.stop();
  return output
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((line) => line.schema === "paperclip.runner.stream.v1");
}

describe("local runner grace periods", () => {
  it("stops a harness that never says ready and reports harness_start_failed", async () => {
    const events = await runWithTimings({ steps: [{ sleep: 60_000 }] }, { readyTimeoutMs: 200 });
    expect(events.at(-1)?.data).toMatchObject({
      reason: "harness_start_failed",
      detail: "the harness did not say ready in time",
    });
  });

  it("stops a harness that lingers after its terminal message, and still credits its result", async () => {
    const events = await runWithTimings(
      {
        ignoreStdinEof: true,
        steps: [
          { ready: {} },
          { waitFor: "turn.start" },
          { result: 1 },
          { terminal: { status: "succeeded" } },
          { sleep: 60_000 },
        ],
      },
      { terminalExitGraceMs: 200 },
    );
    expect(events.find((event) => event.type === "harness.exited")?.data.signal).toBe("SIGTERM");
    expect(events.at(-1)?.data.reason).toBe("successful_process_and_result");
  });
});
