import { type ChildProcess, spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { GroupWatchdog } from "./group-watchdog.js";
import { type HarnessCommand, type HarnessMessage, parseHarnessLine } from "./harness-message.js";
import type { HarnessSpawnSpec } from "./harness-spawn-spec.js";
import { LineFramer } from "./line-framer.js";
import { droppedLineScan, LogTail, type LogTailLimits, type LogTailSnapshot } from "./log-tail.js";
import { type ProcessIdentity, readProcessStartTime } from "./process-identity.js";
import { signalProcessGroup } from "./signal-group.js";

export type HarnessExit =
  | { readonly kind: "spawn_failed"; readonly message: string; readonly logTail: LogTailSnapshot }
  | {
      readonly kind: "exited";
      readonly exitCode: number | null;
      readonly signal: string | null;
      readonly logTail: LogTailSnapshot;
    };

export interface HarnessHandlers {
  onMessage(message: HarnessMessage): void;
  /** Called once; stdout is ignored from then on. */
  onViolation(reason: string): void;
}

export interface HarnessProcessOptions {
  /** Time between SIGTERM and SIGKILL when stopping (`--shutdown-grace-ms`). */
  readonly stopGraceMs: number;
  /** The frame of one stdout or stderr line (`--harness-max-line-bytes`). */
  readonly maxLineBytes: number;
  /** `--log-max-lines` and `--log-max-bytes`. */
  readonly logTail: LogTailLimits;
}

/** How long to wait for the pipes to drain after the process group is gone. */
const PIPE_DRAIN_MS = 2000;
/** How long a command may wait for a harness that does not read its stdin. */
const SEND_FLUSH_WAIT_MS = 1000;

/**
 * One supervised harness: its own process group, framed stdout parsed as the
 * harness protocol, stderr kept as a bounded redacted tail. Whatever ends it (its
 * own exit, a stop, a failed spawn), the whole group is SIGKILLed before `exited`
 * resolves, so no grandchild outlives it.
 */
export class HarnessProcess {
  readonly exited: Promise<HarnessExit>;
  readonly identity: ProcessIdentity | null;
  private readonly child: ChildProcess;
  private readonly watchdog: GroupWatchdog | null;
  private readonly tail: LogTail;
  private violated = false;
  private exitedFlag = false;
  private killTimer: NodeJS.Timeout | undefined;

  constructor(
    spec: HarnessSpawnSpec,
    private readonly handlers: HarnessHandlers,
    private readonly options: HarnessProcessOptions,
  ) {
    this.tail = new LogTail(options.logTail, spec.maskedValues);
    this.child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: definedOnly(spec.env),
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const pid = this.child.pid;
    const startTime = pid === undefined ? null : readProcessStartTime(pid);
    this.identity = pid !== undefined && startTime !== null ? { pid, startTime } : null;
    this.watchdog = this.identity === null ? null : new GroupWatchdog(this.identity);
    this.exited = this.supervise(spec);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Adds a line to the bounded, redacted log tail `harness.exited` reports (log and diagnostic messages). */
  log(line: string): void {
    this.tail.push(line);
  }

  /**
   * Writes one command line to the harness; resolves once the pipe took it, when
   * the harness is gone, or after `SEND_FLUSH_WAIT_MS` with the line still queued:
   * a harness that stops reading stdin must not keep the next command (a cancel)
   * from being read.
   */
  send(command: HarnessCommand): Promise<void> {
    const stdin = this.child.stdin;
    if (stdin === null || stdin.destroyed || stdin.writableEnded) return Promise.resolve();
    const written = new Promise<void>((resolve) => {
      stdin.write(`${JSON.stringify(command)}\n`, () => resolve());
    });
    // The pipe took the whole line at once (the usual case): no wait, so no timer, is needed.
    if (stdin.writableLength === 0) return written;
    return Promise.race([
      written,
      this.exited.then(() => undefined),
      sleep(SEND_FLUSH_WAIT_MS, undefined, { ref: false }),
    ]);
  }

  /**
   * Stops reading the harness's stdout, so a harness that writes faster than the
   * controller reads blocks on its own pipe instead of filling the daemon's memory.
   */
  pauseOutput(): void {
    this.child.stdout?.pause();
  }

  resumeOutput(): void {
    if (!this.exitedFlag) this.child.stdout?.resume();
  }

  /** Closes stdin (the polite request), SIGTERMs the group, SIGKILLs it after the grace period. */
  stop(): Promise<HarnessExit> {
    if (!this.exitedFlag && this.child.pid !== undefined) {
      this.child.stdin?.end();
      this.signalGroup("SIGTERM");
      this.killTimer ??= setTimeout(() => this.signalGroup("SIGKILL"), this.options.stopGraceMs);
    }
    return this.exited;
  }

  private async supervise(spec: HarnessSpawnSpec): Promise<HarnessExit> {
    const child = this.child;
    child.stdin?.on("error", () => {
      // EPIPE after the harness exited: its exit status tells what happened.
    });
    const frame = this.options.maxLineBytes;
    const stdoutFramer = new LineFramer(
      {
        onLine: (line) => this.onStdoutLine(line),
        onOversized: (bytes) => {
          this.tail.note(`stdout: [a line of ${bytes} bytes exceeded the ${frame}-byte frame]`);
          this.violation(`harness stdout line of ${bytes} bytes exceeds the ${frame}-byte frame`);
        },
      },
      frame,
    );
    // A private key's header ending a dropped line still redacts the key's body lines after it.
    const stderrDropped = droppedLineScan(this.tail);
    const stderrFramer = new LineFramer(
      {
        onLine: (line) => this.tail.push(`stderr: ${line}`),
        onOversizedBytes: (piece) => stderrDropped.piece(piece),
        onOversized: (bytes) => {
          stderrDropped.end();
          this.tail.note(
            `stderr: [a line of ${bytes} bytes exceeded the ${frame}-byte frame and was dropped]`,
          );
        },
      },
      frame,
    );
    child.stdout?.on("data", (chunk: Buffer) => stdoutFramer.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderrFramer.push(chunk));
    const stdoutDone = streamDone(child.stdout);
    const stderrDone = streamDone(child.stderr);

    const ended = await new Promise<
      { kind: "error"; error: Error } | { kind: "exit"; code: number | null; signal: NodeJS.Signals | null }
    >((resolve) => {
      child.once("error", (error) => resolve({ kind: "error", error }));
      child.once("exit", (code, signal) => resolve({ kind: "exit", code, signal }));
    });
    this.exitedFlag = true;
    if (this.killTimer !== undefined) clearTimeout(this.killTimer);
    // The leader is gone; anything it left in its group goes with it.
    this.signalGroup("SIGKILL");
    this.watchdog?.dismiss();
    child.stdout?.resume();
    await Promise.race([
      Promise.all([stdoutDone, stderrDone]),
      sleep(PIPE_DRAIN_MS, undefined, { ref: false }),
    ]);
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.stdin?.destroy();
    stdoutFramer.end();
    stderrFramer.end();
    if (spec.cleanup !== undefined) {
      try {
        await spec.cleanup();
      } catch (error) {
        this.tail.push(`[paperclip-runner: sandbox cleanup failed: ${(error as Error).message}]`);
      }
    }
    if (ended.kind === "error") {
      return { kind: "spawn_failed", message: ended.error.message, logTail: this.tail.snapshot() };
    }
    return { kind: "exited", exitCode: ended.code, signal: ended.signal, logTail: this.tail.snapshot() };
  }

  private onStdoutLine(line: string): void {
    if (this.violated) return;
    const parsed = parseHarnessLine(line);
    if (!parsed.ok) {
      this.violation(parsed.violation);
      return;
    }
    this.handlers.onMessage(parsed.message);
  }

  private violation(reason: string): void {
    if (this.violated) return;
    this.violated = true;
    this.handlers.onViolation(reason);
  }

  private signalGroup(signal: NodeJS.Signals): void {
    signalProcessGroup(this.child.pid, signal);
  }
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) result[key] = value;
  return result;
}

function streamDone(stream: NodeJS.ReadableStream | null): Promise<void> {
  if (stream === null) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once("end", resolve);
    stream.once("close", resolve);
    stream.once("error", () => resolve());
  });
}
