/** One journalled chunk of output. */
export interface DataFrame {
  readonly seq: number;
  readonly stream: "stdout" | "stderr";
  readonly data: Buffer;
}

/** How a process ended, as the exit frame and `wait` report it. */
export interface ProcessExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/**
 * The bounded output journal of one process: frames numbered from 1, the oldest evicted once
 * the payload exceeds `limitBytes` (the newest frame always stays), then the exit.
 * Readers poll `frame(seq)` and wait with `changed()`; a ring of frames with a moving head
 * keeps append and eviction O(1).
 */
export class OutputJournal {
  #frames: DataFrame[] = [];
  #head = 0;
  #bytes = 0;
  #newestSeq = 0;
  #evictedBefore = 0;
  #exit: ProcessExit | undefined;
  #changed: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(private readonly limitBytes: number) {}

  get newestSeq(): number {
    return this.#newestSeq;
  }

  /** Frames with `seq <= evictedBefore` are gone. */
  get evictedBefore(): number {
    return this.#evictedBefore;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  append(stream: DataFrame["stream"], data: Buffer): void {
    if (this.#exit || data.length === 0) return;
    this.#newestSeq += 1;
    this.#frames.push({ seq: this.#newestSeq, stream, data });
    this.#bytes += data.length;
    while (this.#bytes > this.limitBytes && this.#frames.length - this.#head > 1) this.#dropOldest();
    this.#compact();
    this.#notify();
  }

  finish(exit: ProcessExit): void {
    if (this.#exit) return;
    this.#exit = exit;
    this.#notify();
  }

  /** Drops every retained frame, as a journal overrun would. */
  evictAll(): void {
    while (this.#frames.length - this.#head > 0) this.#dropOldest();
    this.#compact();
    this.#notify();
  }

  /** The frame `seq` when it is still retained. */
  frame(seq: number): DataFrame | undefined {
    if (seq <= this.#evictedBefore || seq > this.#newestSeq) return undefined;
    return this.#frames[this.#head + (seq - this.#evictedBefore - 1)];
  }

  /** Resolves on the next append, eviction or exit; every reader shares one promise. */
  changed(): Promise<void> {
    if (!this.#changed) {
      let resolve = () => {};
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.#changed = { promise, resolve };
    }
    return this.#changed.promise;
  }

  #dropOldest(): void {
    const oldest = this.#frames[this.#head];
    if (!oldest) return;
    this.#bytes -= oldest.data.length;
    this.#evictedBefore = oldest.seq;
    this.#frames[this.#head] = undefined as unknown as DataFrame;
    this.#head += 1;
  }

  #compact(): void {
    if (this.#head > 1024 && this.#head * 2 > this.#frames.length) {
      this.#frames = this.#frames.slice(this.#head);
      this.#head = 0;
    }
  }

  #notify(): void {
    const changed = this.#changed;
    this.#changed = undefined;
    changed?.resolve();
  }
}
