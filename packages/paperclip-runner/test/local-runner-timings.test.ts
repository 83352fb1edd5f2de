import { existsSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
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
  expect(await runner.run(input)).toBe(0);
  input.stop();
  return output
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((line) => line.schema === "paperclip.runner.stream.v1");
}

// Real processes on a busy 2-core CI machine: far more than vitest\'s 5 s default.
describe("local runner grace periods", { timeout: 60_000 }, () => {
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

// Real processes on a busy 2-core CI machine: far more than vitest\'s 5 s default.
describe("local runner output backpressure", { timeout: 60_000 }, () => {
  it("stops reading a flooding harness while the controller does not read, and loses nothing", async () => {
    const dir = tempDir("backpressure");
    const done = join(dir, "done");
    const count = 20_000;
    const path = writeScript(dir, {
      steps: [
        { ready: {} },
        { waitFor: "turn.start" },
        { eventBurst: { count, event: { kind: "flood" } } },
        { appendFile: { path: done, text: "all written" } },
        { result: "flooded" },
        { exit: 0 },
      ],
    });
    const options = readLocalOptions(parseFlags([...IDS, "--fake-harness", "--script", path]), process.env);
    let release: (() => void) | null = null;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let output = "";
    // A controller that stops reading once the flood has begun, until released.
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        output += chunk.toString("utf8");
        if (output.includes('"kind":"flood"')) void held.then(() => callback());
        else callback();
      },
    });
    const runner = new LocalRunner(
      memoryStateStore(options.binding),
      harnessLauncher(options, process.env),
      stdout,
    );
    const stdin = new PassThrough();
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
    const running = runner.run(input);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // The harness is blocked on its own pipe: it has not got past its burst.
    expect(existsSync(done)).toBe(false);
    (release as unknown as () => void)();
    expect(await running).toBe(0);
    input.stop();
    expect(existsSync(done)).toBe(true);
    const events = output
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((line) => line.schema === "paperclip.runner.stream.v1");
    expect(events.filter((event) => event.type === "harness.event")).toHaveLength(count);
    expect(events.map((event) => event.seq)).toEqual(events.map((_: unknown, index: number) => index + 1));
    expect(events.at(-1)?.data.reason).toBe("successful_process_and_result");
  });
});
