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
/** Either marker, the last of a text deciding whether a block is open after it. */
const PEM_MARKER = /-----(BEGIN|END) (?:[A-Z0-9]{1,16} ){0,4}PRIVATE KEY(?: BLOCK)?-----/g;
/** The longest marker: what a piece of a dropped line carries over to the next. */
const PEM_MARKER_MAX = 101;

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
    this.keep(truncateUtf8(this.redactLine(rawLine), this.limits.maxBytes).text);
  }

  private keep(line: string): void {
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line, "utf8");
    while (this.lines.length > this.limits.maxLines || this.bytes > this.limits.maxBytes) {
      const oldest = this.lines.shift() as string;
      this.bytes -= Buffer.byteLength(oldest, "utf8");
      this.dropped += 1;
    }
  }

  /**
   * A line of the runner's own (a dropped line's notice): kept as it is, neither redacted nor
   * read for a private key's block, which it can neither hold nor end.
   */
  note(line: string): void {
    this.keep(truncateUtf8(line, this.limits.maxBytes).text);
  }

  /**
   * Text that passed unread (a line dropped for its length: `droppedLineScan`): nothing of it is
   * kept, but the last private key's BEGIN or END line in it opens or closes a block as a kept
   * line would, so the body lines after a header that ended an overlong line are redacted too.
   */
  passOver(text: string): void {
    let last: string | undefined;
    for (const match of text.matchAll(PEM_MARKER)) last = match[1];
    if (last !== undefined) this.insidePem = last === "BEGIN";
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

/**
 * What one stream's overlong lines pass to `tail` (`LineFramer`'s `onOversizedBytes`, then
 * `end` at the line's end): each piece with the end of the one before, so that a marker split
 * between two pieces is read whole.
 */
export function droppedLineScan(tail: LogTail): { piece(bytes: Buffer): void; end(): void } {
  let carry = "";
  return {
    piece(bytes) {
      // Markers are ASCII: latin1 reads them as they are, whatever the rest of the bytes are.
      const text = carry + bytes.toString("latin1");
      tail.passOver(text);
      carry = text.slice(-PEM_MARKER_MAX);
    },
    end() {
      carry = "";
    },
  };
}
