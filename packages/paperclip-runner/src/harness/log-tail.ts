import { REDACTED, redactSecrets, truncateUtf8 } from "@paperclipai/errors";

/** Upstream's `--log-max-lines` and `--log-max-bytes`. */
export interface LogTailLimits {
  readonly maxLines: number;
  readonly maxBytes: number;
}

export const DEFAULT_LOG_TAIL_LIMITS: LogTailLimits = { maxLines: 32, maxBytes: 16 * 1024 };

/** The `logs` of `harness.exited`, as upstream reports them. */
export interface LogTailSnapshot {
  readonly lines: readonly string[];
  /** UTF-8 bytes of the lines kept. */
  readonly retainedBytes: number;
  /** Lines pushed out of the tail by newer ones. */
  readonly droppedLines: number;
}

// The headers redactSecrets knows, PGP's `PRIVATE KEY BLOCK` included: a block whose BEGIN line
// one rule redacts but this tracking misses leaves its body lines, which no rule knows, in clear.
const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]{1,16} ){0,4}PRIVATE KEY(?: BLOCK)?-----/;
const PEM_END = /-----END (?:[A-Z0-9]{1,16} ){0,4}PRIVATE KEY(?: BLOCK)?-----/;

/**
 * The last lines a harness logged (its stderr, its log and diagnostic messages),
 * bounded in lines and bytes (a single line is cut to the byte bound), redacted
 * as they arrive. Lines are redacted one by one, so a private key spread over
 * lines is tracked across them: its body lines carry no recognisable prefix.
 * Not @paperclipai/internal's BoundedByteTail: this one keeps whole lines (bounded in count
 * as well as bytes) because upstream's `harness.exited` reports lines.
 */
export class LogTail {
  private readonly lines: string[] = [];
  private bytes = 0;
  private dropped = 0;
  private insidePem = false;
  private readonly limits: LogTailLimits;
  private readonly maskedValues: readonly string[];

  /** `maskedValues` are replaced wherever a line holds them, longest first, before the rules run. */
  constructor(limits: LogTailLimits = DEFAULT_LOG_TAIL_LIMITS, maskedValues: readonly string[] = []) {
    this.limits = { maxLines: Math.max(1, limits.maxLines), maxBytes: Math.max(1, limits.maxBytes) };
    this.maskedValues = maskedValues;
  }

  push(rawLine: string): void {
    const line = truncateUtf8(this.redactLine(rawLine), this.limits.maxBytes).text;
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line, "utf8");
    while (this.lines.length > this.limits.maxLines || this.bytes > this.limits.maxBytes) {
      const oldest = this.lines.shift() as string;
      this.bytes -= Buffer.byteLength(oldest, "utf8");
      this.dropped += 1;
    }
  }

  snapshot(): LogTailSnapshot {
    return { lines: [...this.lines], retainedBytes: this.bytes, droppedLines: this.dropped };
  }

  private redactLine(line: string): string {
    if (this.insidePem) {
      if (PEM_END.test(line)) this.insidePem = false;
      return REDACTED;
    }
    if (PEM_BEGIN.test(line) && !PEM_END.test(line)) this.insidePem = true;
    let masked = line;
    for (const value of this.maskedValues) {
      if (masked.includes(value)) masked = masked.split(value).join(REDACTED);
    }
    return redactSecrets(masked);
  }
}
