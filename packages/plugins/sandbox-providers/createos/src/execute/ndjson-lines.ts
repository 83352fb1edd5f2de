import { CreateosError } from "@paperclipai/errors";

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines. A line may span any number of chunks; a line longer
 * than `maxLineBytes` is a protocol violation, not a reason to buffer without bound.
 * Lines are bytes, not text: a data frame's payload is read without ever becoming a string.
 *
 * A line that spans chunks is gathered in one of two reused buffers, each byte copied
 * once (the reader may reuse a chunk's memory, so its unfinished end is copied before
 * `push` returns); the other buffer still holds the line handed out by the previous push.
 */
export class NdjsonLineSplitter {
  readonly #maxLineBytes: number;
  #gathering = Buffer.alloc(0);
  #spare = Buffer.alloc(0);
  #pendingBytes = 0;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /**
   * Complete lines in this chunk (without the newline); a trailing partial line is kept.
   * A line may share the chunk's memory or the splitter's: read it before the next push.
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
      if (this.#pendingBytes === 0) {
        lines.push(piece);
      } else {
        this.#gather(piece);
        lines.push(this.#gathering.subarray(0, this.#pendingBytes));
        // The next unfinished line goes to the other buffer: this one is the line just handed out.
        [this.#gathering, this.#spare] = [this.#spare, this.#gathering];
        this.#pendingBytes = 0;
      }
      start = end + 1;
    }
    if (start < buffer.length) {
      const rest = buffer.subarray(start);
      this.#check(this.#pendingBytes + rest.length);
      this.#gather(rest);
    }
    return lines;
  }

  /** The unfinished line as text, and forgets it: what is left when the stream ends. */
  takeRest(): string {
    const rest = this.#gathering.toString("utf8", 0, this.#pendingBytes);
    this.#pendingBytes = 0;
    return rest;
  }

  /** Bytes of an unfinished line. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /** Appends `bytes` to the unfinished line, growing its buffer by doubling (within the line limit). */
  #gather(bytes: Buffer): void {
    const needed = this.#pendingBytes + bytes.length;
    if (needed > this.#gathering.length) {
      const grown = Buffer.allocUnsafe(
        Math.min(Math.max(needed, this.#gathering.length * 2, 4096), this.#maxLineBytes),
      );
      this.#gathering.copy(grown, 0, 0, this.#pendingBytes);
      this.#gathering = grown;
    }
    bytes.copy(this.#gathering, this.#pendingBytes);
    this.#pendingBytes = needed;
  }

  #check(length: number): void {
    if (length > this.#maxLineBytes) {
      throw new CreateosError("ERR_CREATEOS_OUTPUT_INVALID", "CreateOS process output is invalid.", {
        details: { reason: "frame too long" },
      });
    }
  }
}
