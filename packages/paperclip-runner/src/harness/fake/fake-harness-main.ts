/**
 * The built-in scripted harness (`--fake-harness --script FILE`): a real child
 * process speaking the harness protocol, driven by a JSON script, for tests and
 * the demo. Node built-ins only: it also runs inside the sandbox, where nothing
 * but this bundle and Node are mounted.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import type { HarnessCommand } from "../harness-message.js";
import { type FakeScript, type FakeStep, parseFakeScript } from "./fake-script.js";

const scriptIndex = process.argv.indexOf("--script");
const scriptPath = scriptIndex === -1 ? undefined : process.argv[scriptIndex + 1];
if (scriptPath === undefined) fatal("missing --script FILE");
let parsedScript: ReturnType<typeof parseFakeScript>;
try {
  parsedScript = parseFakeScript(JSON.parse(readFileSync(scriptPath, "utf8")));
} catch (error) {
  fatal(`cannot read script: ${(error as Error).message}`);
}
if (!parsedScript.ok) fatal(`invalid script: ${parsedScript.reason}`);
const script: FakeScript = parsedScript.script;

if (script.ignoreSigterm) {
  process.on("SIGTERM", () => process.stderr.write("fake harness: ignoring SIGTERM\n"));
}

const queued = new Map<string, HarnessCommand[]>();
const waiting = new Map<string, (command: HarnessCommand) => void>();
let handlers: Promise<void> = Promise.resolve();

const input = createInterface({ input: process.stdin });
input.on("line", (line) => {
  const command = JSON.parse(line) as HarnessCommand;
  if (script.commandLog !== null) {
    const entry = { commandId: command.commandId, command: command.command, resume: command.resume === true };
    appendFileSync(script.commandLog, `${JSON.stringify(entry)}\n`);
  }
  const handler = script.on[command.command];
  if (handler !== undefined) {
    handlers = handlers.then(() => runSteps(handler, command));
    return;
  }
  const waiter = waiting.get(command.command);
  if (waiter !== undefined) {
    waiting.delete(command.command);
    waiter(command);
    return;
  }
  queued.set(command.command, [...(queued.get(command.command) ?? []), command]);
});
// The harness protocol's rule: when the runner closes stdin, the harness leaves.
input.on("close", () => {
  if (script.ignoreStdinEof) setInterval(() => {}, 60_000);
  else process.exit(0);
});

void runSteps(script.steps, null);

async function runSteps(steps: readonly FakeStep[], command: HarnessCommand | null): Promise<void> {
  for (const step of steps) await runStep(substitute(step, command) as FakeStep);
}

async function runStep(step: FakeStep): Promise<void> {
  if ("ready" in step) return send({ type: "ready", protocol: "paperclip.harness.v1", ...step.ready });
  if ("event" in step) return send({ type: "event", event: step.event });
  if ("request" in step) {
    const { requestId, ...request } = step.request;
    return send({ type: "request", requestId, request });
  }
  if ("result" in step) return send({ type: "result", result: step.result });
  if ("terminal" in step) return send({ type: "terminal", ...step.terminal });
  if ("log" in step) return send({ type: "log", level: "info", message: step.log });
  if ("diagnostic" in step) return send({ type: "diagnostic", diagnostic: step.diagnostic });
  if ("waitFor" in step) {
    await waitFor(step.waitFor);
    return;
  }
  if ("sleep" in step) return new Promise((resolve) => setTimeout(resolve, step.sleep));
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
  return send({ type: "event", event: { kind: "env", names: Object.keys(process.env).sort() } });
}

function waitFor(type: string): Promise<HarnessCommand> {
  const ready = queued.get(type);
  if (ready !== undefined && ready.length > 0) return Promise.resolve(ready.shift() as HarnessCommand);
  return new Promise((resolve) => waiting.set(type, resolve));
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

function send(message: Record<string, unknown>): Promise<void> {
  return write(process.stdout, `${JSON.stringify(message)}\n`);
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

function fatal(message: string): never {
  process.stderr.write(`fake harness: ${message}\n`);
  process.exit(2);
}
