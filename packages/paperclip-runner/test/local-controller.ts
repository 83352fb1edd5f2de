import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isAlive, tempDirForTest } from "@paperclipai/test-support";
import { afterEach, expect, vi } from "vitest";
import { LineFramer } from "../src/harness/line-framer.js";
import { upstreamStreamLineProblem } from "./helpers/upstream-validators.js";

/** The built bin, as a launcher runs it. */
export const RUNNERD_BIN = fileURLToPath(new URL("../bin/paperclip-runnerd.js", import.meta.url));

export const COMMAND_SCHEMA = "paperclip.prp.command.v1";

/** A PRP event as it arrives inside the stream envelope. */
export interface WireEvent {
  readonly sourceEventId: string;
  readonly sourceSeq: number;
  readonly eventType: string;
  readonly payload: Record<string, unknown>;
  readonly turnId?: string;
  readonly itemId?: string;
}

export interface WireReceipt {
  readonly commandId: string;
  readonly controllerSeq: number;
  readonly status: string;
  readonly detail: string;
  readonly original?: { status: string; detail: string };
  readonly expectedControllerSeq?: number;
}

export interface WireDiagnostic {
  readonly level: string;
  readonly message: string;
}

type WireMessage =
  | { readonly kind: "event"; readonly event: WireEvent }
  | ({ readonly kind: "command_receipt" } & WireReceipt)
  | ({ readonly kind: "diagnostic" } & WireDiagnostic);

const live = new Set<Controller>();

// After every test, passed or failed: no daemon is left running, and every line any daemon wrote
// passed upstream's validators.
afterEach(async () => {
  const controllers = [...live];
  live.clear();
  await Promise.all(controllers.map((controller) => controller.dispose()));
  for (const controller of controllers) expect(controller.invalidLines).toEqual([]);
});

/**
 * An independent controller: it knows only the wire format. It spawns the
 * daemon's bin, writes command lines to its stdin and checks every stdout line
 * with upstream's validators as it reads it.
 */
export class Controller {
  readonly messages: WireMessage[] = [];
  /** Lines upstream's controller would refuse, with the reason. */
  readonly invalidLines: string[] = [];
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcessWithoutNullStreams;
  private waiters: (() => void)[] = [];
  private seq = 0;

  constructor(args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
    this.child = spawn(process.execPath, [RUNNERD_BIN, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    live.add(this);
    this.child.stdin.on("error", () => undefined);
    const framer = new LineFramer(
      { onLine: (line) => this.onLine(line), onOversized: () => this.invalidLines.push("oversized") },
      64 * 1024 * 1024,
    );
    this.child.stdout.on("data", (chunk: Buffer) => {
      framer.push(chunk);
      this.wake();
    });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.wake();
        resolve({ code, signal });
      });
    });
  }

  get pid(): number {
    return this.child.pid as number;
  }

  /** Sends a command with the next controllerSeq (or the one given). */
  send(type: string, commandId: string, payload: Record<string, unknown> = {}, controllerSeq?: number): void {
    const seq = controllerSeq ?? this.seq + 1;
    this.seq = Math.max(this.seq, seq);
    this.sendRaw(JSON.stringify({ schema: COMMAND_SCHEMA, commandId, controllerSeq: seq, type, payload }));
  }

  sendRaw(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  ack(throughSeq: number): void {
    this.sendRaw(JSON.stringify({ schema: "paperclip.prp.ack.v1", throughSeq }));
  }

  closeStdin(): void {
    this.child.stdin.end();
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  events(): WireEvent[] {
    return this.messages.flatMap((message) => (message.kind === "event" ? [message.event] : []));
  }

  receipts(): WireReceipt[] {
    return this.messages.flatMap((message) => (message.kind === "command_receipt" ? [message] : []));
  }

  diagnostics(): WireDiagnostic[] {
    return this.messages.flatMap((message) =>
      message.kind === "diagnostic" ? [{ level: message.level, message: message.message }] : [],
    );
  }

  receiptFor(commandId: string): WireReceipt[] {
    return this.receipts().filter((receipt) => receipt.commandId === commandId);
  }

  event(eventType: string): WireEvent | undefined {
    return this.events().find((event) => event.eventType === eventType);
  }

  /** Resolves with the first message matching `predicate`. */
  async waitFor<T>(pick: (message: WireMessage) => T | undefined, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (true) {
      for (const message of this.messages) {
        const found = pick(message);
        if (found !== undefined) return found;
      }
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`daemon exited before the expected line; stderr: ${this.stderr}`);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out; messages: ${JSON.stringify(this.messages.map(brief))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  waitForEvent(eventType: string, timeoutMs?: number): Promise<WireEvent> {
    return this.waitFor(
      (message) =>
        message.kind === "event" && message.event.eventType === eventType ? message.event : undefined,
      timeoutMs,
    );
  }

  waitForReceipt(commandId: string, timeoutMs?: number): Promise<WireReceipt> {
    return this.waitFor(
      (message) =>
        message.kind === "command_receipt" && message.commandId === commandId ? message : undefined,
      timeoutMs,
    );
  }

  /** Teardown: a daemon still running is asked to stop (SIGTERM stops its harness too), then killed. */
  async dispose(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill("SIGTERM");
    const stopped = await Promise.race([this.exited.then(() => true), sleep(5_000).then(() => false)]);
    if (!stopped) {
      this.child.kill("SIGKILL");
      await this.exited;
    }
  }

  private onLine(line: string): void {
    const problem = upstreamStreamLineProblem(line);
    if (problem !== null) this.invalidLines.push(`${problem}: ${line.slice(0, 300)}`);
    try {
      this.messages.push((JSON.parse(line) as { message: WireMessage }).message);
    } catch {
      // Already recorded as invalid.
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}

function brief(message: WireMessage): string {
  if (message.kind === "event") return message.event.eventType;
  if (message.kind === "command_receipt") return `${message.commandId}:${message.status}:${message.detail}`;
  return `diagnostic:${message.message}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Every run's stream invariants: contiguous sourceSeq from 1, ids from run id and seq, exactly one terminal, last. */
export function expectWellFormedStream(events: readonly WireEvent[], runId = "run-1"): void {
  expect(events.map((event) => event.sourceSeq)).toEqual(events.map((_, index) => index + 1));
  for (const event of events) {
    expect(event.sourceEventId).toBe(`event_${runId}_${String(event.sourceSeq).padStart(3, "0")}`);
  }
  expect(events.filter((event) => event.eventType === "run.terminal")).toHaveLength(1);
  expect(events.at(-1)?.eventType).toBe("run.terminal");
}

/** Waits for the run's end and returns the reason the runner decided (`reconciliation.reason`). */
export async function terminalOf(controller: Controller): Promise<string> {
  const terminal = await controller.waitForEvent("run.terminal");
  const exit = await controller.exited;
  expect(exit.code).toBe(0);
  expectWellFormedStream(controller.events());
  return (terminal.payload.reconciliation as { reason: string }).reason;
}

/** Writes a scripted-harness script and returns its path. */
export function writeScript(dir: string, script: unknown, name = "script.json"): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(script));
  return path;
}

export const IDS = ["--run-id", "run-1", "--session-id", "session-1", "--runner-id", "runner-1"] as const;

/** The daemon's command line for run-1 on the built-in scripted harness reading `scriptPath`. */
export function builtinHarnessArgs(scriptPath: string, extraArgs: readonly string[] = []): string[] {
  return [...IDS, "--fake-harness", "builtin", "--script", scriptPath, ...extraArgs];
}

/** Runs the built-in scripted harness with `script` (written to a fresh temp dir). */
export function fakeDaemon(
  script: unknown,
  env?: NodeJS.ProcessEnv,
  extraArgs: readonly string[] = [],
): Controller {
  const path = writeScript(tempDirForTest("runner-script-"), script);
  return new Controller(builtinHarnessArgs(path, extraArgs), env);
}

/** A structured run result upstream's schema accepts. */
export function runResult(summary = "done"): Record<string, unknown> {
  return {
    schema: "paperclip.run_result.v1",
    reportedWorkDisposition: "done",
    summary,
    completionClaim: {
      contractRevision: "test-v1",
      objectiveSatisfied: true,
      criteria: [],
      remainingWork: [],
    },
    evidence: [],
    verification: [],
    attentionRequests: [],
    artifacts: [],
  };
}

/**
 * Resolves once `pid` is gone (no process, or a zombie), failing after `withinMs` (20 s by
 * default, a bound on "eventually" for a loaded machine; the processes it waits for sleep 60 s):
 * a SIGKILL is delivered, and the orphan reaped, asynchronously.
 */
export async function goneWithin(pid: number, withinMs = 20_000): Promise<void> {
  await vi.waitFor(() => expect(isAlive(pid), `process ${pid} is still alive`).toBe(false), {
    timeout: withinMs,
    interval: 50,
  });
}
