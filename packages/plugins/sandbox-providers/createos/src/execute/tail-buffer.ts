import { ByteQueue } from "./byte-queue.js";

/** 4 Mi characters: what `execute` keeps of each stream. */
export const DEFAULT_TAIL_CHARS = 4 * 1024 * 1024;

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The last `maxChars` characters of a stream, joined once, at the end. A cut never splits a
 * surrogate pair (the tail may then be one code unit shorter than the limit).
 *
 * Text known to be ASCII (most output) is kept as its bytes, a byte per character, in a
 * queue outside the JavaScript heap; other text is kept as the strings it came in. So the
 * strings of a long run of output die as soon as they are logged, instead of living on in
 * the tail until megabytes later, which would have the garbage collector copy each of them.
 * `pieces` says in order where each run of the tail is: a number is that many characters of
 * ASCII at the front of the byte queue, a string is itself.
 *
 * Not @paperclipai/internal's BoundedByteTail on purpose: the plugin receives decoded text
 * and its `tailChars` setting is documented in characters, so the bound counts UTF-16 code
 * units of strings, where the byte tail counts bytes of buffers.
 */
export class TailBuffer {
  readonly #maxChars: number;
  readonly #ascii: ByteQueue;
  #pieces: Array<number | string> = [];
  #head = 0;
  #chars = 0;
  #droppedChars = 0;
  #droppedBytes = 0;

  constructor(maxChars: number = DEFAULT_TAIL_CHARS) {
    this.#maxChars = maxChars;
    this.#ascii = new ByteQueue(maxChars);
  }

  /** `ascii`: every character of `text` is below U+0080, so it is kept as bytes. */
  append(text: string, ascii = false): void {
    if (text === "") return;
    const kept = this.#makeRoom(text);
    if (kept === "") return;
    this.#chars += kept.length;
    if (!ascii) {
      this.#pieces.push(kept);
      return;
    }
    this.#ascii.pushLatin1(kept);
    const last = this.#pieces.length - 1;
    if (last >= this.#head && typeof this.#pieces[last] === "number") {
      (this.#pieces[last] as number) += kept.length;
    } else {
      this.#pieces.push(kept.length);
    }
  }

  get truncated(): boolean {
    return this.#droppedChars > 0;
  }

  /** UTF-16 code units dropped from the front. */
  get droppedChars(): number {
    return this.#droppedChars;
  }

  /** UTF-8 bytes of the dropped text. */
  get droppedBytes(): number {
    return this.#droppedBytes;
  }

  get length(): number {
    return this.#chars;
  }

  toString(): string {
    const parts: string[] = [];
    let asciiAt = 0;
    for (let i = this.#head; i < this.#pieces.length; i++) {
      const piece = this.#pieces[i]!;
      if (typeof piece === "string") {
        parts.push(piece);
      } else {
        parts.push(this.#ascii.latin1(asciiAt, piece));
        asciiAt += piece;
      }
    }
    const text = parts.join("");
    // Keep the joined form so a second read costs nothing.
    this.#ascii.clear();
    this.#pieces = text === "" ? [] : [text];
    this.#head = 0;
    return text;
  }

  /**
   * Drops characters from the front until `text` fits, and returns what of `text` is kept:
   * all of it, or its end when it is longer than the tail itself.
   */
  #makeRoom(text: string): string {
    while (this.#chars + text.length > this.#maxChars && this.#head < this.#pieces.length) {
      const first = this.#pieces[this.#head]!;
      const excess = this.#chars + text.length - this.#maxChars;
      if (typeof first === "number") {
        const dropped = Math.min(first, excess);
        this.#ascii.shift(dropped);
        this.#count(dropped, dropped);
        if (dropped < first) {
          this.#pieces[this.#head] = first - dropped;
          break;
        }
      } else if (first.length > excess) {
        const rest = this.#cut(first, excess);
        this.#chars -= first.length - rest.length;
        this.#pieces[this.#head] = rest;
        break;
      } else {
        this.#count(first.length, Buffer.byteLength(first, "utf8"));
      }
      // Release the dropped piece now; the slot itself goes at the next compaction.
      this.#pieces[this.#head] = 0;
      this.#head++;
    }
    if (this.#head > 64 && this.#head * 2 > this.#pieces.length) {
      this.#pieces = this.#pieces.slice(this.#head);
      this.#head = 0;
    }
    const excess = this.#chars + text.length - this.#maxChars;
    return excess > 0 ? this.#cut(text, excess) : text;
  }

  /**
   * `text` without its first `count` code units (one more rather than half a surrogate pair),
   * which are counted as dropped.
   */
  #cut(text: string, count: number): string {
    let cut = count;
    if (isLowSurrogate(text.charCodeAt(cut))) cut++;
    const dropped = text.slice(0, cut);
    this.#droppedChars += dropped.length;
    this.#droppedBytes += Buffer.byteLength(dropped, "utf8");
    return text.slice(cut);
  }

  /** Counts characters of the tail as dropped. */
  #count(chars: number, bytes: number): void {
    this.#droppedChars += chars;
    this.#droppedBytes += bytes;
    this.#chars -= chars;
  }
}
