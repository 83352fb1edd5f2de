import { spawn } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { HarnessCommand } from "../harness-message.js";
import type { FakeScript, FakeStep } from "./fake-script.js";
import { CommandInbox, send, write } from "./harness-io.js";

/** Runs a script of this package's documented format (see `fake-script.ts`). */
export async function runOwnScript(script: FakeScript): Promise<void> {
  if (script.ignoreSigterm) {
    process.on("SIGTERM", () => process.stderr.write("fake harness: ignoring SIGTERM\n"));
  }
  let handlers: Promise<void> = Promise.resolve();
  const inbox = new CommandInbox(
    (command) => {
      const handler = script.on[command.command];
      if (handler === undefined) return false;
      handlers = handlers.then(() => runSteps(handler, command, inbox));
      return true;
    },
    script.commandLog,
    // The harness protocol's rule: when the runner closes stdin, the harness leaves.
    () => {
      if (script.ignoreStdinEof) setInterval(() => {}, 60_000);
      else process.exit(0);
    },
  );
  await runSteps(script.steps, null, inbox);
}

/**
 * Runs `steps` in order. Consecutive protocol messages go out in one write, as
 * a harness that buffers its output writes them: the runner reads them in one
 * chunk and commits them in one journal record. Any other step first flushes
 * them, so an `exit` or a `crash` never loses a message written before it.
 */
async function runSteps(
  steps: readonly FakeStep[],
  command: HarnessCommand | null,
  inbox: CommandInbox,
): Promise<void> {
  let batch = "";
  for (const template of steps) {
    const step = substitute(template, command) as FakeStep;
    const message = protocolMessage(step);
    if (message !== null) {
      batch += `${JSON.stringify(message)}\n`;
      continue;
    }
    if (batch !== "") await write(process.stdout, batch);
    batch = "";
    await runStep(step, inbox);
  }
  if (batch !== "") await write(process.stdout, batch);
}

/** The harness protocol message a step sends, or null for a step that does something else. */
function protocolMessage(step: FakeStep): Record<string, unknown> | null {
  if ("ready" in step) return { type: "ready", protocol: "paperclip.harness.v1", ...step.ready };
  if ("event" in step) return { type: "event", event: step.event };
  if ("request" in step) return { type: "request", request: step.request };
  if ("result" in step) return { type: "result", result: step.result };
  if ("terminal" in step) return { type: "terminal", terminal: step.terminal };
  if ("log" in step) return { type: "log", stream: "stdout", text: step.log };
  if ("diagnostic" in step) return { type: "diagnostic", diagnostic: step.diagnostic };
  return null;
}

async function runStep(step: FakeStep, inbox: CommandInbox): Promise<void> {
  if ("waitFor" in step) {
    await inbox.take((command) => command.command === step.waitFor);
    return;
  }
  if ("sleep" in step) {
    await sleep(step.sleep);
    return;
  }
  if ("exit" in step) process.exit(step.exit);
  if ("crash" in step) {
    process.removeAllListeners("SIGTERM");
    process.kill(process.pid, step.crash);
    return new Promise(() => {});
  }
  if ("stdout" in step) return write(process.stdout, `${step.stdout}\n`);
  if ("stderr" in step) return write(process.stderr, `${step.stderr}\n`);
  if ("oversizedStdout" in step) return write(process.stdout, `${"x".repeat(step.oversizedStdout)}\n`);
  if ("oversizedStderr" in step) return write(process.stderr, `${"y".repeat(step.oversizedStderr)}\n`);
  if ("spawnSleeper" in step) {
    const sleeper = spawn(process.execPath, ["-e", `setTimeout(() => {}, ${step.spawnSleeper.ms})`], {
      stdio: "ignore",
    });
    sleeper.unref();
    writeFileSync(step.spawnSleeper.pidFile, String(sleeper.pid));
    return;
  }
  if ("appendFile" in step) {
    appendFileSync(step.appendFile.path, step.appendFile.text);
    return;
  }
  if ("eventBurst" in step) {
    const line = `${JSON.stringify({ type: "event", event: step.eventBurst.event })}\n`;
    for (let index = 0; index < step.eventBurst.count; index += 1) {
      if (!process.stdout.write(line)) await once(process.stdout, "drain");
    }
    return;
  }
  return send({
    type: "event",
    event: { eventType: "session.updated", payload: { kind: "env", names: Object.keys(process.env).sort() } },
  });
}

/** In `on` handlers, `{{commandId}}` and `{{command}}` are replaced in strings, and `"{{payload}}"` by the payload. */
function substitute(value: unknown, command: HarnessCommand | null): unknown {
  if (command === null) return value;
  if (typeof value === "string") {
    if (value === "{{payload}}") return command.payload;
    return value.replaceAll("{{commandId}}", command.commandId).replaceAll("{{command}}", command.command);
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, command));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, command)]));
  }
  return value;
}
