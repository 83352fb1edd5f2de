/** 4 Mi characters: what `execute` keeps of each stream. */
export const DEFAULT_TAIL_CHARS = 4 * 1024 * 1024;

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The last `maxChars` characters of a stream, kept as a ring of chunks: appending is O(1)
 * amortised and the text is joined once, at the end. A cut never splits a surrogate pair
 * (the tail may then be one code unit shorter than the limit).
 *
 * Not @paperclipai/internal's BoundedByteTail on purpose: the plugin receives decoded text
 * and its `tailChars` setting is documented in characters, so the bound counts UTF-16 code
 * units of strings, where the byte tail counts bytes of buffers.
 */
export class TailBuffer {
  readonly #maxChars: number;
  #chunks: string[] = [];
  #head = 0;
  #chars = 0;
  #droppedChars = 0;
  #droppedBytes = 0;

  constructor(maxChars: number = DEFAULT_TAIL_CHARS) {
    this.#maxChars = maxChars;
  }

  append(text: string): void {
    if (text === "") return;
    this.#chunks.push(text);
    this.#chars += text.length;
    this.#trim();
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
    const text = this.#chunks.slice(this.#head).join("");
    // Keep the joined form so a second read costs nothing.
    this.#chunks = [text];
    this.#head = 0;
    return text;
  }

  #drop(text: string): void {
    this.#droppedChars += text.length;
    this.#droppedBytes += Buffer.byteLength(text, "utf8");
    this.#chars -= text.length;
  }

  #trim(): void {
    while (this.#chars > this.#maxChars) {
      const first = this.#chunks[this.#head]!;
      const excess = this.#chars - this.#maxChars;
      if (first.length <= excess) {
        this.#drop(first);
        // Release the dropped chunk now; the slot itself goes at the next compaction.
        this.#chunks[this.#head] = "";
        this.#head++;
        continue;
      }
      let cut = excess;
      if (isLowSurrogate(first.charCodeAt(cut))) cut++;
      this.#drop(first.slice(0, cut));
      this.#chunks[this.#head] = first.slice(cut);
      break;
    }
    if (this.#head > 64 && this.#head * 2 > this.#chunks.length) {
      this.#chunks = this.#chunks.slice(this.#head);
      this.#head = 0;
    }
  }
}
