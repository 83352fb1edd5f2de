import { redactSecrets, truncateUtf8 } from "@paperclipai/errors";

export interface LogTailLimits {
  readonly maxLines: number;
  readonly maxBytes: number;
  readonly maxLineBytes: number;
}

export const DEFAULT_LOG_TAIL_LIMITS: LogTailLimits = {
  maxLines: 200,
  maxBytes: 16 * 1024,
  maxLineBytes: 2048,
};

export interface LogTailSnapshot {
  readonly lines: readonly string[];
  /** Lines pushed out of the tail by newer ones. */
  readonly droppedLines: number;
}

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;
const PEM_END = /-----END [A-Z0-9 ]*PRIVATE KEY-----/;

/**
 * The last lines of a harness's stderr, bounded in lines and bytes, redacted as
 * they arrive. Lines are redacted one by one, so a private key spread over lines
 * is tracked across them: its body lines carry no recognisable prefix of their own.
 */
export class LogTail {
  private readonly lines: string[] = [];
  private bytes = 0;
  private dropped = 0;
  private insidePem = false;

  constructor(private readonly limits: LogTailLimits = DEFAULT_LOG_TAIL_LIMITS) {}

  push(rawLine: string): void {
    const line = truncateUtf8(this.redactLine(rawLine), this.limits.maxLineBytes).text;
    const size = Buffer.byteLength(line, "utf8") + 1;
    this.lines.push(line);
    this.bytes += size;
    while (this.lines.length > this.limits.maxLines || this.bytes > this.limits.maxBytes) {
      const oldest = this.lines.shift() as string;
      this.bytes -= Buffer.byteLength(oldest, "utf8") + 1;
      this.dropped += 1;
    }
  }

  snapshot(): LogTailSnapshot {
    return { lines: [...this.lines], droppedLines: this.dropped };
  }

  private redactLine(line: string): string {
    if (this.insidePem) {
      if (PEM_END.test(line)) this.insidePem = false;
      return "[REDACTED]";
    }
    if (PEM_BEGIN.test(line) && !PEM_END.test(line)) {
      this.insidePem = true;
      return redactSecrets(line);
    }
    return redactSecrets(line);
  }
}
