/** One journalled chunk of output. */
export interface DataFrame {
  readonly seq: number;
  readonly stream: "stdout" | "stderr";
  readonly data: Buffer;
  /** Payload bytes appended to the journal up to and including this frame. */
  readonly end: number;
}

/** How a process ended, as the exit frame and `wait` report it. */
export interface ProcessExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** A connection following the journal; `cursor` is the last seq written to it. */
export interface JournalReader {
  cursor: number;
}

/**
 * The bounded output journal of one process: frames numbered from 1, the oldest evicted once
 * the payload exceeds `limitBytes` (the newest frame always stays), then the exit.
 * Readers poll `frame(seq)` and wait with `changed()`; a ring of frames with a moving head
 * keeps append and eviction O(1).
 *
 * With `backpressure`, a frame is only evicted once it was written to a connection and every
 * attached connection is past it. The producer is expected to stop reading its pipes while
 * `backlogged` (more than `limitBytes` not yet written to the slowest connection) and to
 * resume once `relieved` (half of that), like a pipe with a 1 MiB buffer.
 */
export class OutputJournal {
  #frames: DataFrame[] = [];
  #head = 0;
  #bytes = 0;
  #appended = 0;
  #newestSeq = 0;
  #evictedBefore = 0;
  #exit: ProcessExit | undefined;
  #changed: { promise: Promise<void>; resolve: () => void } | undefined;
  readonly #readers = new Set<JournalReader>();
  #delivered = 0;

  constructor(
    private readonly limitBytes: number,
    private readonly backpressure = false,
  ) {}

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

  /** True when the producer should stop (backpressure only). */
  get backlogged(): boolean {
    return this.backpressure && this.#pendingBytes() > this.limitBytes;
  }

  /** True when a stopped producer may go on. */
  get relieved(): boolean {
    return this.#pendingBytes() <= this.limitBytes / 2;
  }

  attach(cursor: number): JournalReader {
    const reader = { cursor };
    this.#readers.add(reader);
    return reader;
  }

  detach(reader: JournalReader): void {
    this.#readers.delete(reader);
    this.#trim();
  }

  /** Records that `seq` was written to `reader`'s connection. */
  delivered(reader: JournalReader, seq: number): void {
    reader.cursor = seq;
    if (seq > this.#delivered) this.#delivered = seq;
    if (this.backpressure) this.#trim();
  }

  append(stream: DataFrame["stream"], data: Buffer): void {
    if (this.#exit || data.length === 0) return;
    this.#newestSeq += 1;
    this.#appended += data.length;
    this.#frames.push({ seq: this.#newestSeq, stream, data, end: this.#appended });
    this.#bytes += data.length;
    this.#trim();
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

  /** The slowest position that still needs its frames: the slowest attached reader, else the furthest delivery. */
  #holdCursor(): number {
    let cursor = this.#readers.size === 0 ? this.#delivered : Number.POSITIVE_INFINITY;
    for (const reader of this.#readers) cursor = Math.min(cursor, reader.cursor);
    return cursor;
  }

  #pendingBytes(): number {
    const next = this.frame(this.#holdCursor() + 1);
    return next ? this.#appended - (next.end - next.data.length) : 0;
  }

  #trim(): void {
    const before = this.#bytes;
    const hold = this.backpressure ? this.#holdCursor() : Number.POSITIVE_INFINITY;
    while (this.#bytes > this.limitBytes && this.#frames.length - this.#head > 1) {
      const oldest = this.#frames[this.#head];
      if (!oldest || oldest.seq > hold) break;
      this.#dropOldest();
    }
    this.#compact();
    if (this.#bytes !== before || (this.backpressure && this.relieved)) this.#notify();
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
