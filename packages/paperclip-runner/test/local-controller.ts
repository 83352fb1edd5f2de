import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built bin, as a launcher runs it. */
export const RUNNERD_BIN = fileURLToPath(new URL("../bin/paperclip-runnerd.js", import.meta.url));

export const COMMAND_SCHEMA = "paperclip.prp.command.v1";

export interface WireLine {
  readonly schema: string;
  readonly [key: string]: unknown;
}

export interface WireEvent extends WireLine {
  readonly id: string;
  readonly seq: number;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

export interface WireReceipt extends WireLine {
  readonly commandId: string | null;
  readonly status: string;
  readonly message: string;
  readonly original?: { status: string; message: string };
  readonly expectedControllerSeq?: number;
}

/**
 * An independent controller: it knows only the wire format. It spawns the
 * daemon's bin, writes command lines to its stdin and reads every stdout line.
 */
export class Controller {
  readonly lines: WireLine[] = [];
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcessWithoutNullStreams;
  private buffered = "";
  private waiters: (() => void)[] = [];
  private seq = 0;

  constructor(args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
    this.child = spawn(process.execPath, [RUNNERD_BIN, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdin.on("error", () => undefined);
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.buffered += chunk;
      let newline = this.buffered.indexOf("\n");
      while (newline !== -1) {
        this.lines.push(JSON.parse(this.buffered.slice(0, newline)) as WireLine);
        this.buffered = this.buffered.slice(newline + 1);
        newline = this.buffered.indexOf("\n");
      }
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
    return this.lines.filter((line) => line.schema === "paperclip.runner.stream.v1") as WireEvent[];
  }

  receipts(): WireReceipt[] {
    return this.lines.filter((line) => line.schema === "paperclip.prp.receipt.v1") as WireReceipt[];
  }

  receiptFor(commandId: string): WireReceipt[] {
    return this.receipts().filter((receipt) => receipt.commandId === commandId);
  }

  /** Resolves with the first line matching `predicate`. */
  async waitFor<T extends WireLine>(predicate: (line: WireLine) => boolean, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (true) {
      const found = this.lines.find(predicate);
      if (found !== undefined) return found as T;
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`daemon exited before the expected line; stderr: ${this.stderr}`);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out; lines: ${JSON.stringify(this.lines.map(brief))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  waitForEvent(type: string, timeoutMs?: number): Promise<WireEvent> {
    return this.waitFor<WireEvent>(
      (line) => line.schema === "paperclip.runner.stream.v1" && line.type === type,
      timeoutMs,
    );
  }

  waitForReceipt(commandId: string, timeoutMs?: number): Promise<WireReceipt> {
    return this.waitFor<WireReceipt>(
      (line) => line.schema === "paperclip.prp.receipt.v1" && line.commandId === commandId,
      timeoutMs,
    );
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}

function brief(line: WireLine): string {
  return String(line.type ?? `${line.commandId}:${line.status}:${line.message}`);
}

/** A fresh temporary directory for one test. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `runner-${prefix}-`));
}

/** Writes a fake-harness script and returns its path. */
export function writeScript(dir: string, script: unknown, name = "script.json"): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(script));
  return path;
}

export const IDS = ["--run-id", "run-1", "--session-id", "session-1", "--runner-id", "runner-1"] as const;

/** Whether a process with this pid is still alive (and not a zombie). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
