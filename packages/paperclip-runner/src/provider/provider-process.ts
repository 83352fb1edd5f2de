import { type ChildProcess, spawn } from "node:child_process";
import { closeSync } from "node:fs";
import { GroupWatchdog } from "../harness/group-watchdog.js";
import { LineFramer } from "../harness/line-framer.js";
import { droppedLineScan, LogTail } from "../harness/log-tail.js";
import { type ProcessIdentity, readProcessStartTime } from "../harness/process-identity.js";
import { signalProcessGroup } from "../harness/signal-group.js";
import { providerFrame } from "./provider-frame.js";

/** Upstream's provider frame: one JSON-RPC line is at most 4 MiB. */
export const MAX_PROVIDER_FRAME_BYTES = 4 * 1024 * 1024;
/** Time between SIGTERM and SIGKILL when the runner stops a provider. */
const KILL_GRACE_MS = 2000;

export interface ProviderSpawnSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  /** Extra descriptors handed to the child as fds 3.. (OpenCode's verified executable and command). */
  readonly extraFds?: readonly number[];
  /** The child's `argv[0]` when `command` is not its name (OpenCode's command run through `/proc/self/fd`). */
  readonly argv0?: string;
}

export type ProviderExit =
  | { readonly kind: "spawn_failed"; readonly message: string }
  | { readonly kind: "exited"; readonly exitCode: number | null; readonly signal: string | null };

/** Pure: why the provider is gone, as the runner reports it (a signal death names its signal). */
export function providerExitReason(exit: ProviderExit): string {
  if (exit.kind === "spawn_failed") return exit.message;
  return `the provider exited (code ${exit.exitCode ?? "none"}, signal ${exit.signal ?? "none"})`;
}

export interface ProviderLineHandlers {
  onLine(line: string): void;
  onOversized(bytes: number): void;
  /** A line that is not UTF-8 (upstream's reader takes only UTF-8 lines). */
  onInvalidText(bytes: number): void;
}

/**
 * One provider child: its own process group (watched, so a SIGKILLed runner does
 * not leave it behind), stdout framed into lines of at most 4 MiB, stderr kept as
 * a bounded redacted tail. Whatever ends it, the whole group is killed before
 * `exited` resolves.
 */
export class ProviderProcess {
  readonly exited: Promise<ProviderExit>;
  /** Resolves once stdout ended (or could not open): every line the provider wrote was handed over. */
  readonly outputEnded: Promise<void>;
  readonly identity: ProcessIdentity | null;
  readonly stderr = new LogTail({ maxLines: 16, maxBytes: 8 * 1024 });
  private readonly child: ChildProcess;
  private readonly watchdog: GroupWatchdog | null;
  private done = false;
  private exit: ProviderExit | null = null;

  constructor(spec: ProviderSpawnSpec, handlers: ProviderLineHandlers) {
    this.child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe", ...(spec.extraFds ?? [])],
      ...(spec.argv0 === undefined ? {} : { argv0: spec.argv0 }),
    });
    // The child holds its own copies of the handed-over descriptors now.
    for (const fd of spec.extraFds ?? []) closeSync(fd);
    const pid = this.child.pid;
    const startTime = pid === undefined ? null : readProcessStartTime(pid);
    this.identity = pid !== undefined && startTime !== null ? { pid, startTime } : null;
    this.watchdog = this.identity === null ? null : new GroupWatchdog(this.identity);
    const framer = new LineFramer(
      {
        onLine: (line) => handlers.onLine(line),
        onOversized: (bytes) => handlers.onOversized(bytes),
        onInvalidText: (bytes) => handlers.onInvalidText(bytes),
      },
      MAX_PROVIDER_FRAME_BYTES,
    );
    this.child.stdout?.on("data", (chunk: Buffer) => framer.push(chunk));
    this.outputEnded = new Promise((resolve) => {
      if (this.child.stdout === null) resolve();
      this.child.stdout?.on("end", () => {
        framer.end();
        resolve();
      });
      this.child.stdout?.on("close", () => resolve());
      this.child.once("error", () => resolve());
    });
    const dropped = droppedLineScan(this.stderr);
    const errors = new LineFramer({
      onLine: (line) => this.stderr.push(line),
      onOversizedBytes: (piece) => dropped.piece(piece),
      onOversized: () => dropped.end(),
    });
    this.child.stderr?.on("data", (chunk: Buffer) => errors.push(chunk));
    this.child.stdin?.on("error", () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.once("error", (error) => {
        if (this.child.pid === undefined)
          this.finish(resolve, { kind: "spawn_failed", message: error.message });
      });
      this.child.once("exit", (code, signal) => {
        this.finish(resolve, { kind: "exited", exitCode: code, signal });
      });
    });
  }

  get pid(): number | null {
    return this.identity?.pid ?? null;
  }

  get hasExited(): boolean {
    return this.done;
  }

  /** How the provider ended, once it has (`hasExited`), else null. */
  get exitStatus(): ProviderExit | null {
    return this.exit;
  }

  /** Writes one JSON-RPC message as a line (`providerFrame`); a provider that stopped reading loses it (its exit is reported). */
  send(message: Record<string, unknown>): void {
    if (this.done) return;
    this.child.stdin?.write(providerFrame(message));
  }

  /** Stops the group: SIGTERM, then SIGKILL after the grace; resolves once it is gone. */
  async stop(graceMs: number = KILL_GRACE_MS): Promise<ProviderExit> {
    if (!this.done) {
      this.signalGroup(graceMs === 0 ? "SIGKILL" : "SIGTERM");
      const timer = setTimeout(() => this.signalGroup("SIGKILL"), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    return this.exited;
  }

  private finish(resolve: (exit: ProviderExit) => void, exit: ProviderExit): void {
    if (this.done) return;
    this.done = true;
    this.exit = exit;
    // Grandchildren must not outlive the provider.
    this.signalGroup("SIGKILL");
    this.watchdog?.dismiss();
    resolve(exit);
  }

  private signalGroup(signal: NodeJS.Signals): void {
    signalProcessGroup(this.child.pid, signal);
  }
}
