/** The harness protocol's frame limit: one JSON line is at most 64 KiB (newline excluded). */
export const MAX_LINE_BYTES = 64 * 1024;

export interface LineFramerHandlers {
  onLine(line: string): void;
  /** A line longer than the limit; its bytes were dropped, never buffered past the limit. */
  onOversized(droppedBytes: number): void;
}

/**
 * Splits a byte stream into newline-terminated lines with bounded memory: an
 * oversized line is counted and skipped up to its newline instead of growing a
 * buffer. Works on bytes, so a multi-byte character split across chunks decodes whole.
 */
export class LineFramer {
  private parts: Buffer[] = [];
  private partBytes = 0;
  private oversizedBytes: number | null = null;

  constructor(
    private readonly handlers: LineFramerHandlers,
    private readonly maxLineBytes: number = MAX_LINE_BYTES,
  ) {}

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
      return;
    }
    if (this.partBytes + piece.length > this.maxLineBytes) {
      this.oversizedBytes = this.partBytes + piece.length;
      this.parts = [];
      this.partBytes = 0;
      return;
    }
    this.parts.push(Buffer.from(piece));
    this.partBytes += piece.length;
  }

  private finishLine(): void {
    if (this.oversizedBytes !== null) {
      const dropped = this.oversizedBytes;
      this.oversizedBytes = null;
      this.handlers.onOversized(dropped);
      return;
    }
    let line = Buffer.concat(this.parts, this.partBytes).toString("utf8");
    this.parts = [];
    this.partBytes = 0;
    if (line.endsWith("\r")) line = line.slice(0, -1);
    this.handlers.onLine(line);
  }
}
