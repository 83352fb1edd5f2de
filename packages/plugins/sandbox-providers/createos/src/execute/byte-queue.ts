/**
 * A first-in, first-out queue of bytes in one buffer used as a ring, outside the JavaScript
 * heap: bytes are appended at the back and dropped from the front without moving the rest.
 * The buffer grows by doubling as needed, but not past `limit` bytes unless it must: a user
 * that never holds more than `limit` gets a buffer of at most that size.
 */
export class ByteQueue {
  readonly #limit: number;
  #ring = Buffer.alloc(0);
  #start = 0;
  #length = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get length(): number {
    return this.#length;
  }

  /** Appends the characters of `text`, each below U+0100, as a byte each. */
  pushLatin1(text: string): void {
    const needed = this.#length + text.length;
    if (needed > this.#ring.length) this.#grow(needed);
    const capacity = this.#ring.length;
    const end = (this.#start + this.#length) % capacity;
    const first = Math.min(text.length, capacity - end);
    this.#ring.write(text, end, first, "latin1");
    if (first < text.length) this.#ring.write(text.slice(first), 0, "latin1");
    this.#length = needed;
  }

  /** Drops `count` bytes from the front. */
  shift(count: number): void {
    const dropped = Math.min(count, this.#length);
    this.#length -= dropped;
    this.#start = this.#length === 0 ? 0 : (this.#start + dropped) % this.#ring.length;
  }

  /** `count` bytes, `offset` bytes from the front, as Latin-1 text. */
  latin1(offset: number, count: number): string {
    const capacity = this.#ring.length;
    if (count === 0 || capacity === 0) return "";
    const from = (this.#start + offset) % capacity;
    if (from + count <= capacity) return this.#ring.toString("latin1", from, from + count);
    const wrapped = count - (capacity - from);
    return this.#ring.toString("latin1", from, capacity) + this.#ring.toString("latin1", 0, wrapped);
  }

  /** Empties the queue and releases its buffer. */
  clear(): void {
    this.#ring = Buffer.alloc(0);
    this.#start = 0;
    this.#length = 0;
  }

  /** A larger buffer holding the same bytes, from its start. */
  #grow(needed: number): void {
    const doubled = Math.min(this.#limit, Math.max(this.#ring.length * 2, 4096));
    const grown = Buffer.allocUnsafe(Math.max(needed, doubled));
    const firstPart = Math.min(this.#length, this.#ring.length - this.#start);
    this.#ring.copy(grown, 0, this.#start, this.#start + firstPart);
    this.#ring.copy(grown, firstPart, 0, this.#length - firstPart);
    this.#ring = grown;
    this.#start = 0;
  }
}
