import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { EmulatedProcess } from "./emulated-process.js";
import { killProcessTree } from "./process-tree.js";
import type { SandboxDirs } from "./sandbox-paths.js";
import type { SandboxSnapshot, SandboxStatus } from "./types.js";

export interface SandboxSpec {
  readonly shape: string;
  readonly rootfs: string | null;
  readonly region: string | null;
  readonly ingressEnabled: boolean;
  /** Env keys (and default values) declared at creation; processes may only set these keys. */
  readonly env: Readonly<Record<string, string>>;
}

/** Pausing, resuming and creating take `transitionMs`; these are the states in between. */
const TRANSITIONAL: ReadonlySet<SandboxStatus> = new Set(["creating", "pausing", "resuming"]);

/** One sandbox: its private directories, its processes and its asynchronous state machine. */
export class EmulatedSandbox implements SandboxDirs {
  readonly workspaceDir: string;
  readonly tmpDir: string;
  readonly processes = new Map<string, EmulatedProcess>();
  /** Process groups of `exec` commands whose tree was still alive after the command returned. */
  readonly execGroups = new Set<number>();
  readonly createdAt = new Date().toISOString();
  #status: SandboxStatus = "creating";
  #timer: NodeJS.Timeout | undefined;
  /** A state `GET` shows instead of the real one until `until` (`performance.now()`): a `stale-state` fault. */
  #shown: { readonly status: SandboxStatus; readonly until: number } | undefined;

  private constructor(
    readonly id: string,
    readonly spec: SandboxSpec,
    readonly dir: string,
    private readonly transitionMs: number,
  ) {
    this.workspaceDir = join(dir, "paperclip-workspace");
    this.tmpDir = join(dir, "tmp");
  }

  static async create(
    id: string,
    spec: SandboxSpec,
    root: string,
    transitionMs: number,
  ): Promise<EmulatedSandbox> {
    const sandbox = new EmulatedSandbox(id, spec, join(root, id), transitionMs);
    await mkdir(sandbox.workspaceDir, { recursive: true, mode: 0o755 });
    await mkdir(sandbox.tmpDir, { recursive: true, mode: 0o1777 });
    sandbox.#after("running");
    return sandbox;
  }

  get status(): SandboxStatus {
    return this.#status;
  }

  /** The state a `GET` shows: the real one, unless a stale one is still shown. */
  get shownStatus(): SandboxStatus {
    if (this.#shown !== undefined && performance.now() < this.#shown.until) return this.#shown.status;
    this.#shown = undefined;
    return this.#status;
  }

  /** Shows `status` to `GET` for `ms` whatever the real state. */
  showStale(status: SandboxStatus, ms: number): void {
    this.#shown = { status, until: performance.now() + ms };
  }

  get inTransition(): boolean {
    return TRANSITIONAL.has(this.#status);
  }

  /** Starts `pausing` → `paused`; false when the sandbox is not running. A paused sandbox stays paused. */
  pause(): boolean {
    if (this.#status === "paused") return true;
    if (this.#status !== "running") return false;
    this.#status = "pausing";
    this.#after("paused", () => {
      for (const process of this.processes.values()) process.freeze(true);
    });
    return true;
  }

  /** Starts `resuming` → `running`; false unless paused. A running sandbox stays running. */
  resume(): boolean {
    if (this.#status === "running") return true;
    if (this.#status !== "paused") return false;
    this.#status = "resuming";
    this.#after("running", () => {
      for (const process of this.processes.values()) process.freeze(false);
    });
    return true;
  }

  /** Forces a state (tests), cancelling a pending transition. */
  force(status: SandboxStatus): void {
    clearTimeout(this.#timer);
    this.#status = status;
  }

  /** Kills every process tree and removes the directories; the sandbox then reads `destroyed`. */
  async destroy(graceMs: number): Promise<void> {
    this.force("destroyed");
    await Promise.all([
      ...[...this.processes.values()].map((process) => process.killTree(graceMs)),
      ...[...this.execGroups].map((pgid) => killProcessTree(pgid, graceMs)),
    ]);
    await rm(this.dir, { recursive: true, force: true });
  }

  snapshot(): SandboxSnapshot {
    return {
      id: this.id,
      status: this.#status,
      shape: this.spec.shape,
      rootfs: this.spec.rootfs,
      region: this.spec.region,
      workspaceDir: this.workspaceDir,
      tmpDir: this.tmpDir,
      processIds: [...this.processes.keys()],
    };
  }

  #after(status: SandboxStatus, effect?: () => void): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      effect?.();
      this.#status = status;
    }, this.transitionMs);
    this.#timer.unref();
  }
}
