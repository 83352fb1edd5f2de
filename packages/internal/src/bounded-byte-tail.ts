/**
 * The last `limit` bytes of a stream, kept as the chunks that arrived (no copy per
 * chunk, no re-slicing of one large string): the one bounded byte tail.
 * `text()` decodes once, dropping the partial UTF-8 character the cut may leave at
 * the front.
 */
export class BoundedByteTail {
  readonly limit: number;
  #chunks: Buffer[] = [];
  /** Index of the oldest kept chunk in `#chunks`; the array is compacted now and then. */
  #head = 0;
  #bytes = 0;
  #droppedBytes = 0;

  constructor(limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 0)
      throw new RangeError(`limit must be a non-negative integer; got ${limit}`);
    this.limit = limit;
  }

  /** Bytes currently kept (at most `limit`). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Bytes pushed and no longer kept. */
  get droppedBytes(): number {
    return this.#droppedBytes;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (chunk.length >= this.limit) {
      this.#droppedBytes += this.#bytes + chunk.length - this.limit;
      this.#chunks = this.limit === 0 ? [] : [chunk.subarray(chunk.length - this.limit)];
      this.#head = 0;
      this.#bytes = this.limit;
      return;
    }
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    while (this.#bytes > this.limit) {
      const oldest = this.#chunks[this.#head] as Buffer;
      const excess = this.#bytes - this.limit;
      if (oldest.length <= excess) {
        this.#head += 1;
        this.#bytes -= oldest.length;
        this.#droppedBytes += oldest.length;
      } else {
        this.#chunks[this.#head] = oldest.subarray(excess);
        this.#bytes -= excess;
        this.#droppedBytes += excess;
      }
    }
    if (this.#head > 1024 && this.#head * 2 > this.#chunks.length) {
      this.#chunks = this.#chunks.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The kept bytes. */
  buffer(): Buffer {
    return Buffer.concat(this.#chunks.slice(this.#head), this.#bytes);
  }

  /** The kept bytes as UTF-8; a character cut at the front by the limit is left out whole. */
  text(): string {
    const bytes = this.buffer();
    let start = 0;
    if (this.#droppedBytes > 0) {
      // Continuation bytes (10xxxxxx) at the front belong to a character whose first byte was dropped.
      while (start < bytes.length && start < 3 && ((bytes[start] as number) & 0xc0) === 0x80) start += 1;
    }
    return bytes.toString("utf8", start);
  }
}
