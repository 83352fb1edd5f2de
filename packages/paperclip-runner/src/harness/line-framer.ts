import { TextDecoder } from "node:util";

/** The harness protocol's frame limit: one JSON line is at most 64 KiB (newline excluded). */
export const MAX_LINE_BYTES = 64 * 1024;

export interface LineFramerHandlers {
  onLine(line: string): void;
  /** A line longer than the limit; its bytes were dropped, never buffered past the limit. */
  onOversized(droppedBytes: number): void;
  /**
   * The bytes of a line longer than the limit as they are dropped, in order (what was buffered
   * before the line outgrew the limit first), before `onOversized` ends the line: for a caller
   * that must notice what passes unread (a private key's header at the end of an overlong line).
   */
  onOversizedBytes?(piece: Buffer): void;
  /**
   * A line that is not UTF-8. Without this handler such a line is decoded leniently (U+FFFD
   * for each bad sequence) and goes to `onLine`.
   */
  onInvalidText?(bytes: number): void;
}

/** Where a line's buffer starts; it doubles as the line grows, up to the limit. */
const INITIAL_CAPACITY = 1024;
/** A buffer grown past this by a long line is let go once the line ends. */
const KEPT_CAPACITY = 64 * 1024;

/**
 * Splits a byte stream into newline-terminated lines with bounded memory: an
 * oversized line is counted and skipped up to its newline instead of growing a
 * buffer, and a line arriving in many small chunks is copied into one growing
 * buffer (never one object per chunk). Works on bytes, so a multi-byte character
 * split across chunks decodes whole.
 */
export class LineFramer {
  private buffer: Buffer | null = null;
  private partBytes = 0;
  private oversizedBytes: number | null = null;
  private readonly strict: TextDecoder | null;

  constructor(
    private readonly handlers: LineFramerHandlers,
    private readonly maxLineBytes: number = MAX_LINE_BYTES,
  ) {
    this.strict =
      handlers.onInvalidText === undefined
        ? null
        : new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) return;
      this.finishLine();
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.partBytes > 0 || this.oversizedBytes !== null) this.finishLine();
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.oversizedBytes !== null) {
      this.oversizedBytes += piece.length;
      this.handlers.onOversizedBytes?.(piece);
      return;
    }
    const needed = this.partBytes + piece.length;
    if (needed > this.maxLineBytes) {
      this.oversizedBytes = needed;
      if (this.buffer !== null && this.partBytes > 0)
        this.handlers.onOversizedBytes?.(this.buffer.subarray(0, this.partBytes));
      this.handlers.onOversizedBytes?.(piece);
      this.partBytes = 0;
      return;
    }
    if (this.buffer === null || this.buffer.length < needed) {
      let capacity = Math.max(this.buffer?.length ?? 0, INITIAL_CAPACITY);
      while (capacity < needed) capacity *= 2;
      const grown = Buffer.allocUnsafe(Math.min(capacity, this.maxLineBytes));
      this.buffer?.copy(grown, 0, 0, this.partBytes);
      this.buffer = grown;
    }
    piece.copy(this.buffer, this.partBytes);
    this.partBytes = needed;
  }

  private finishLine(): void {
    if (this.oversizedBytes !== null) {
      const dropped = this.oversizedBytes;
      this.oversizedBytes = null;
      this.handlers.onOversized(dropped);
      return;
    }
    const bytes = this.buffer === null ? Buffer.alloc(0) : this.buffer.subarray(0, this.partBytes);
    this.partBytes = 0;
    const line = this.decode(bytes);
    if ((this.buffer?.length ?? 0) > KEPT_CAPACITY) this.buffer = null;
    if (line === null) return;
    this.handlers.onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  }

  /** The line's text; null when it is not UTF-8 and the handlers asked to hear of that. */
  private decode(bytes: Buffer): string | null {
    if (this.strict === null) return bytes.toString("utf8");
    try {
      return this.strict.decode(bytes);
    } catch {
      this.handlers.onInvalidText?.(bytes.length);
      return null;
    }
  }
}
