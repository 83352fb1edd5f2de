import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { OutputJournal, type ProcessExit } from "./journal.js";
import { killProcessTree, listTree, signalProcessTree } from "./process-tree.js";
import type { ProcessSnapshot } from "./types.js";

// After the leader exits, background children may keep the pipes open; output is read for
// this long, then the pipes are cut so the exit frame is always the last frame.
const DRAIN_AFTER_EXIT_MS = 250;

/** One `/processes` child: its process group, its stdin and its output journal. */
export class EmulatedProcess {
  readonly journal: OutputJournal;
  readonly osPid: number;
  #stdinClosed = false;
  #killedTree = false;
  #treeGone = false;
  #killing: Promise<boolean> | undefined;
  readonly #exited: Promise<ProcessExit>;

  constructor(
    readonly id: string,
    readonly sandboxId: string,
    private readonly child: ChildProcess,
    journalBytes: number,
  ) {
    if (child.pid === undefined) throw new Error("child has no pid");
    this.osPid = child.pid;
    this.journal = new OutputJournal(journalBytes);
    child.stdout?.on("data", (chunk: Buffer) => this.journal.append("stdout", chunk));
    child.stderr?.on("data", (chunk: Buffer) => this.journal.append("stderr", chunk));
    // A child that exits before reading stdin makes writes/close fail with EPIPE; that is normal.
    child.stdin?.on("error", () => {});
    this.#exited = this.#watchExit();
  }

  async #watchExit(): Promise<ProcessExit> {
    const [code, signal] = (await once(this.child, "exit")) as [number | null, NodeJS.Signals | null];
    const closed = once(this.child, "close").then(() => true);
    if (!(await Promise.race([closed, delay(DRAIN_AFTER_EXIT_MS).then(() => false)]))) {
      this.child.stdout?.destroy();
      this.child.stderr?.destroy();
    }
    const exit = { exitCode: code, signal };
    this.journal.finish(exit);
    if (listTree(this.osPid).length === 0) this.#treeGone = true;
    return exit;
  }

  get running(): boolean {
    return this.journal.exit === undefined;
  }

  get killedTree(): boolean {
    return this.#killedTree;
  }

  get stdinClosed(): boolean {
    return this.#stdinClosed;
  }

  /** False when stdin was already closed. */
  closeStdin(): boolean {
    if (this.#stdinClosed) return false;
    this.#stdinClosed = true;
    this.child.stdin?.end();
    return true;
  }

  /** Resolves true when the process has exited within `timeoutMs`. */
  async waitExit(timeoutMs: number, abort?: AbortSignal): Promise<boolean> {
    if (!this.running) return true;
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    abort?.addEventListener("abort", onAbort, { once: true });
    try {
      return await Promise.race([
        this.#exited.then(() => true),
        delay(timeoutMs, false, { signal: controller.signal }).catch(() => false),
      ]);
    } finally {
      controller.abort();
      abort?.removeEventListener("abort", onAbort);
    }
  }

  /** Kills the whole tree (TERM, `graceMs`, KILL); concurrent calls share one kill. */
  killTree(graceMs: number): Promise<boolean> {
    this.#killedTree = true;
    if (this.#treeGone) return Promise.resolve(true);
    this.#killing ??= killProcessTree(this.osPid, graceMs).then(async (gone) => {
      if (gone) {
        this.#treeGone = true;
        await this.#exited;
      }
      this.#killing = undefined;
      return gone;
    });
    return this.#killing;
  }

  /** Freezes (SIGSTOP) or thaws (SIGCONT) the tree, as pausing a sandbox VM would. */
  freeze(frozen: boolean): void {
    if (!this.#treeGone) signalProcessTree(this.osPid, frozen ? "SIGSTOP" : "SIGCONT");
  }

  snapshot(): ProcessSnapshot {
    const exit = this.journal.exit;
    return {
      id: this.id,
      sandboxId: this.sandboxId,
      osPid: this.osPid,
      running: this.running,
      exitCode: exit?.exitCode ?? null,
      signal: exit?.signal ?? null,
      killedTree: this.#killedTree,
      treeAlive: !this.#treeGone && listTree(this.osPid).length > 0,
      newestSeq: this.journal.newestSeq,
      evictedBefore: this.journal.evictedBefore,
      journalBytes: this.journal.bytes,
      stdinClosed: this.#stdinClosed,
    };
  }
}
