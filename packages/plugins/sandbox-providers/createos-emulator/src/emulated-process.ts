import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { type ProcStat, readProcTable } from "@paperclipai/internal";
import { OutputJournal, type ProcessExit } from "./journal.js";
import { groupEmpty, killProcessTree, listTree, signalProcessTree } from "./process-tree.js";
import { settleWithin } from "./settle-within.js";
import type { ProcessSnapshot } from "./types.js";

// After the leader exits, background children may keep the pipes open. Output is read until
// the pipes have been silent this long (time spent throttled does not count), or at most the
// cap, then the pipes are cut so the exit frame is always the last frame.
const DRAIN_IDLE_MS = 250;
const DRAIN_CAP_MS = 10_000;

/** One `/processes` child: its process group, its stdin and its output journal. */
export class EmulatedProcess {
  readonly journal: OutputJournal;
  readonly osPid: number;
  #stdinClosed = false;
  #killedTree = false;
  #treeGone = false;
  #throttled = false;
  /** Counts output chunks; compared across a drain interval to detect silence. */
  #outputChunks = 0;
  #killing: Promise<boolean> | undefined;
  readonly #exited: Promise<ProcessExit>;

  constructor(
    readonly id: string,
    readonly sandboxId: string,
    private readonly child: ChildProcess,
    journal: { readonly journalBytes: number; readonly journalBackpressure: boolean },
    private readonly cleanup: () => Promise<void>,
  ) {
    this.osPid = child.pid ?? 0;
    this.journal = new OutputJournal(journal.journalBytes, journal.journalBackpressure);
    child.stdout?.on("data", (chunk: Buffer) => this.#output("stdout", chunk));
    child.stderr?.on("data", (chunk: Buffer) => this.#output("stderr", chunk));
    // A child that exits before reading stdin makes writes/close fail with EPIPE; that is normal.
    child.stdin?.on("error", () => {});
    // Signalling an exited child can report an error; the exit is observed through "exit".
    child.on("error", () => {});
    this.#exited = this.#watchExit();
  }

  #output(stream: "stdout" | "stderr", chunk: Buffer): void {
    this.#outputChunks += 1;
    this.journal.append(stream, chunk);
    if (this.journal.backlogged && !this.#throttled) void this.#throttle();
  }

  /** Stops reading the pipes (the child blocks on write) until readers let the journal shrink. */
  async #throttle(): Promise<void> {
    this.#throttled = true;
    this.child.stdout?.pause();
    this.child.stderr?.pause();
    while (!this.journal.relieved) await this.journal.changed();
    this.#throttled = false;
    this.child.stdout?.resume();
    this.child.stderr?.resume();
  }

  async #watchExit(): Promise<ProcessExit> {
    // Both listeners go on now: "close" can follow "exit" within the same tick.
    let closed = false;
    const close = once(this.child, "close").then(() => {
      closed = true;
    });
    const [code, signal] = (await once(this.child, "exit")) as [number | null, NodeJS.Signals | null];
    let unthrottledMs = 0;
    while (!closed && unthrottledMs < DRAIN_CAP_MS) {
      const before = this.#outputChunks;
      await settleWithin(close, DRAIN_IDLE_MS, undefined);
      if (this.#throttled) continue;
      unthrottledMs += DRAIN_IDLE_MS;
      if (this.#outputChunks === before) break;
    }
    if (!closed) {
      this.child.stdout?.destroy();
      this.child.stderr?.destroy();
    }
    const exit = { exitCode: code, signal };
    await this.cleanup().catch(() => {});
    this.journal.finish(exit);
    // An empty group (the usual end: the leader reaped, no background children) needs no
    // /proc scan; a scan takes milliseconds, so the readers woken by finish() go first.
    if (groupEmpty(this.osPid)) this.#treeGone = true;
    else
      setImmediate(() => {
        if (listTree(this.osPid).length === 0) this.#treeGone = true;
      });
    return exit;
  }

  get running(): boolean {
    return this.journal.exit === undefined;
  }

  get killedTree(): boolean {
    return this.#killedTree;
  }

  /** Set once a `DELETE` has killed the tree: the API then answers 404 for this process. */
  removed = false;

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
    return settleWithin(
      this.#exited.then(() => true),
      timeoutMs,
      false,
      abort,
    );
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

  /** `table` lets a caller snapshotting many processes read `/proc` once. */
  snapshot(table: ProcStat[] | undefined = readProcTable()): ProcessSnapshot {
    const exit = this.journal.exit;
    return {
      id: this.id,
      sandboxId: this.sandboxId,
      osPid: this.osPid,
      running: this.running,
      exitCode: exit?.exitCode ?? null,
      signal: exit?.signal ?? null,
      killedTree: this.#killedTree,
      treeAlive: !this.#treeGone && listTree(this.osPid, table).length > 0,
      newestSeq: this.journal.newestSeq,
      evictedBefore: this.journal.evictedBefore,
      journalBytes: this.journal.bytes,
      stdinClosed: this.#stdinClosed,
    };
  }
}
