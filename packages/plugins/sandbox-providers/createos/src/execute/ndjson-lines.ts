import { CreateosError } from "@paperclipai/errors";

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines. A line may span any number of chunks; a line longer
 * than `maxLineBytes` is a protocol violation, not a reason to buffer without bound.
 * Lines are bytes, not text: a data frame's payload is read without ever becoming a string.
 */
export class NdjsonLineSplitter {
  readonly #maxLineBytes: number;
  #parts: Buffer[] = [];
  #pendingBytes = 0;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /**
   * Complete lines in this chunk (without the newline); a trailing partial line is kept.
   * A line may share the chunk's memory: read it before the next chunk arrives.
   */
  push(chunk: Uint8Array): Buffer[] {
    const lines: Buffer[] = [];
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (;;) {
      const end = buffer.indexOf(NEWLINE, start);
      if (end === -1) break;
      const piece = buffer.subarray(start, end);
      this.#check(this.#pendingBytes + piece.length);
      if (this.#parts.length === 0) {
        lines.push(piece);
      } else {
        this.#parts.push(piece);
        lines.push(Buffer.concat(this.#parts, this.#pendingBytes + piece.length));
        this.#parts = [];
        this.#pendingBytes = 0;
      }
      start = end + 1;
    }
    if (start < buffer.length) {
      const rest = buffer.subarray(start);
      this.#check(this.#pendingBytes + rest.length);
      // Copy: the reader may reuse the chunk's memory.
      this.#parts.push(Buffer.from(rest));
      this.#pendingBytes += rest.length;
    }
    return lines;
  }

  /** The unfinished line as text, and forgets it: what is left when the stream ends. */
  takeRest(): string {
    const rest = Buffer.concat(this.#parts, this.#pendingBytes).toString("utf8");
    this.#parts = [];
    this.#pendingBytes = 0;
    return rest;
  }

  /** Bytes of an unfinished line. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  #check(length: number): void {
    if (length > this.#maxLineBytes) {
      throw new CreateosError("ERR_CREATEOS_OUTPUT_INVALID", "CreateOS process output is invalid.", {
        details: { reason: "frame too long" },
      });
    }
  }
}
