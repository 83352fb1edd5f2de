import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { parseFlags } from "../src/cli/flags.js";
import { controllerLines } from "../src/local/controller-lines.js";
import { harnessLauncher } from "../src/local/harness-launcher.js";
import { type LocalOptions, readLocalOptions } from "../src/local/local-options.js";
import { LocalRunner } from "../src/local/local-runner.js";
import { type LocalTimings, localTimings } from "../src/local/local-timings.js";
import { memoryStateStore } from "../src/state/state-store.js";
import { upstreamStreamLineProblem } from "./helpers/upstream-validators.js";
import {
  builtinHarnessArgs,
  COMMAND_SCHEMA,
  runResult,
  type WireEvent,
  writeScript,
} from "./local-controller.js";

const COMMANDS = `${["run.prepare", "session.open", "turn.start"]
  .map((type, index) =>
    JSON.stringify({
      schema: COMMAND_SCHEMA,
      commandId: `c${index + 1}`,
      controllerSeq: index + 1,
      type,
      payload: {},
    }),
  )
  .join("\n")}\n`;

function optionsFor(script: unknown, dir = tempDirForTest("runner-timings-")): LocalOptions {
  const path = writeScript(dir, script);
  return readLocalOptions(parseFlags(builtinHarnessArgs(path)), process.env);
}

function runnerFor(
  options: LocalOptions,
  stdout: Writable,
  timings: Partial<LocalTimings> = {},
): LocalRunner {
  return new LocalRunner(
    memoryStateStore(options.binding),
    harnessLauncher(options, process.env),
    stdout,
    { ...localTimings(options.limits), ...timings },
    options.limits,
  );
}

/** Every line upstream's validators pass; the events. */
function eventsOf(output: string): WireEvent[] {
  const lines = output.trim().split("\n");
  expect(lines.map(upstreamStreamLineProblem).filter((problem) => problem !== null)).toEqual([]);
  return lines
    .map((line) => JSON.parse(line).message)
    .filter((message) => message.kind === "event")
    .map((message) => message.event as WireEvent);
}

/**
 * The runner's grace periods, shortened so their expiry is observable in a test;
 * in-process because the bin keeps the production timings. The harness is still
 * the real scripted harness process.
 */
async function runWithTimings(script: unknown, timings: Partial<LocalTimings>): Promise<WireEvent[]> {
  const options = optionsFor(script);
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let output = "";
  stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  stdin.write(COMMANDS);
  const input = controllerLines(stdin, options.limits.controllerMaxLineBytes);
  expect(await runnerFor(options, stdout, timings).run(input)).toBe(0);
  input.stop();
  return eventsOf(output);
}

const reconciliationOf = (events: WireEvent[]) =>
  events.at(-1)?.payload.reconciliation as Record<string, unknown>;

// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
describe("local runner grace periods", { timeout: 60_000 }, () => {
  it("stops a harness that never says ready and reports harness_start_failed", async () => {
    const events = await runWithTimings({ steps: [{ sleep: 60_000 }] }, { readyTimeoutMs: 200 });
    expect(reconciliationOf(events)).toMatchObject({
      reason: "harness_start_failed",
      detail: "the harness did not start: the harness did not say ready within 200 ms",
    });
  });

  it("stops a harness that lingers after its terminal proposal, and still credits its result", async () => {
    const events = await runWithTimings(
      {
        ignoreStdinEof: true,
        steps: [
          { ready: {} },
          { waitFor: "turn.start" },
          { result: runResult() },
          { terminal: {} },
          { sleep: 60_000 },
        ],
      },
      { terminalExitGraceMs: 200 },
    );
    expect(events.find((event) => event.eventType === "harness.exited")?.payload.processExit).toMatchObject({
      signal: 15,
    });
    expect(reconciliationOf(events).reason).toBe("successful_process_and_result");
  });
});

/** One controller command line, as the controller writes it. */
function commandLine(type: string, commandId: string, controllerSeq: number): string {
  return `${JSON.stringify({ schema: COMMAND_SCHEMA, commandId, controllerSeq, type, payload: {} })}\n`;
}

// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
describe("local runner turn.interrupt", { timeout: 60_000 }, () => {
  it("answers turn.interrupt once it is forwarded, and leaves the harness running to wind the turn down", async () => {
    const dir = tempDirForTest("runner-interrupt-");
    const log = join(dir, "commands.log");
    // The harness stays until the runner forwards runner.shutdown: the test sends it only after the
    // interrupt's receipt, so the harness can log it only if it was still running when the receipt was out.
    // It ignores the SIGTERM that follows the forwarded shutdown, so it always reads the shutdown first.
    const options = optionsFor(
      {
        commandLog: log,
        ignoreSigterm: true,
        steps: [
          { ready: {} },
          { waitFor: "turn.start" },
          { waitFor: "turn.interrupt" },
          { waitFor: "runner.shutdown" },
          { exit: 0 },
        ],
      },
      dir,
    );
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let output = "";
    let onOutput: () => void = () => undefined;
    stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      onOutput();
    });
    const receiptOut = (commandId: string) =>
      new Promise<void>((resolve) => {
        onOutput = () => {
          if (output.includes(`"kind":"command_receipt","commandId":"${commandId}"`)) resolve();
        };
        onOutput();
      });
    stdin.write(COMMANDS);
    const input = controllerLines(stdin, options.limits.controllerMaxLineBytes);
    // Graces far longer than the test: nothing here waits for one to expire.
    const running = runnerFor(options, stdout, { interruptGraceMs: 600_000, stopGraceMs: 600_000 }).run(
      input,
    );
    stdin.write(commandLine("turn.interrupt", "c4", 4));
    await receiptOut("c4");
    stdin.write(commandLine("runner.shutdown", "c5", 5));
    expect(await running).toBe(0);
    input.stop();

    const received = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { commandId: string }).commandId);
    expect(received).toEqual(["c2", "c3", "c4", "c5"]);
    const events = eventsOf(output);
    expect(reconciliationOf(events).reason).toBe("turn_interrupted");
  });
});

// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
describe("local runner output backpressure", { timeout: 60_000 }, () => {
  it("loses nothing and keeps the order when the controller stops reading during a flood", async () => {
    const dir = tempDirForTest("runner-backpressure-");
    const done = join(dir, "done");
    const count = 20_000;
    const options = optionsFor(
      {
        steps: [
          { ready: {} },
          { waitFor: "turn.start" },
          { eventBurst: { count, event: { eventType: "item.delta", payload: { text: "flood" } } } },
          { appendFile: { path: done, text: "all written" } },
          { result: runResult() },
          { exit: 0 },
        ],
      },
      dir,
    );
    let release: (() => void) | null = null;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let output = "";
    // A controller that stops reading once the flood has begun, until released.
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        output += chunk.toString("utf8");
        if (output.includes('"text":"flood"')) void held.then(() => callback());
        else callback();
      },
    });
    const stdin = new PassThrough();
    stdin.write(COMMANDS);
    const input = controllerLines(stdin, options.limits.controllerMaxLineBytes);
    const running = runnerFor(options, stdout).run(input);
    // Released once the runner is already holding lines back (the ledger's pause is unit-tested in run-ledger.test.ts).
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (output.includes('"text":"flood"')) {
          clearInterval(poll);
          resolve();
        }
      }, 10);
    });
    (release as unknown as () => void)();
    expect(await running).toBe(0);
    input.stop();
    expect(existsSync(done)).toBe(true);
    const events = eventsOf(output);
    expect(events.filter((event) => event.eventType === "item.delta")).toHaveLength(count);
    expect(events.map((event) => event.sourceSeq)).toEqual(events.map((_, index) => index + 1));
    expect(reconciliationOf(events).reason).toBe("successful_process_and_result");
  });
});
