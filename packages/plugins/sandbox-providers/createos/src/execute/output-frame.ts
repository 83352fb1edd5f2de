import { CreateosError } from "@paperclipai/errors";

export type OutputStream = "stdout" | "stderr";

export type RawFrame = Record<string, unknown>;

export type DataDecision =
  | { readonly kind: "duplicate" }
  | { readonly kind: "next"; readonly seq: number; readonly stream: OutputStream; readonly bytes: Buffer };

export interface ExitStatus {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

function invalidOutput(reason: string): CreateosError {
  return new CreateosError("ERR_CREATEOS_OUTPUT_INVALID", "CreateOS process output is invalid.", {
    details: { reason },
  });
}

/** One NDJSON line as an object; anything else breaks the protocol. */
export function parseFrameLine(line: string): RawFrame {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw invalidOutput("frame is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalidOutput("frame is not an object");
  const frame = value as RawFrame;
  // Unknown frame *types* are ignored (a newer server may add some); an object without a
  // type is no frame at all. An error envelope in the stream is the service saying no.
  if (typeof frame.type !== "string") {
    if (frame.status === "error") {
      throw new CreateosError(
        "ERR_CREATEOS_UNSUCCESSFUL_RESPONSE",
        "CreateOS returned an unsuccessful response.",
      );
    }
    throw invalidOutput("frame has no type");
  }
  return frame;
}

/**
 * Reused memory for decoded payloads, so a frame costs no allocation of its own: the
 * bytes it returns are valid until its next use (a frame is decoded to text at once).
 */
export class DecodeScratch {
  #buffer = Buffer.alloc(0);

  /** `text` decoded as `Buffer.from(text, "base64")` decodes it, into the reused memory. */
  decode(text: string): Buffer {
    const most = (text.length / 4) * 3;
    if (most > this.#buffer.length)
      this.#buffer = Buffer.allocUnsafe(Math.max(most, this.#buffer.length * 2));
    return this.#buffer.subarray(0, this.#buffer.write(text, "base64"));
  }
}

/**
 * Strict, canonical, padded base64: decoding and re-encoding must give the same text.
 * Checked without re-encoding it all: Node's decoder skips characters outside the
 * alphabet, so the decoded length is the expected one only when every character but the
 * final padding is a base64 digit (the URL-safe `-` and `_`, which it also accepts, are
 * refused apart); a group of four digits then always re-encodes to itself, and only the
 * last, padded group can carry unused bits, so it alone is re-encoded and compared.
 */
export function decodeCanonicalBase64(text: unknown, into?: DecodeScratch): Buffer | undefined {
  if (typeof text !== "string" || text.length % 4 !== 0) return undefined;
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const bytes = into === undefined ? Buffer.from(text, "base64") : into.decode(text);
  if (bytes.length !== (text.length / 4) * 3 - padding) return undefined;
  if (text.includes("-") || text.includes("_")) return undefined;
  if (padding === 0) return bytes;
  const lastGroup = bytes.subarray(bytes.length - (3 - padding)).toString("base64");
  return lastGroup === text.slice(-4) ? bytes : undefined;
}

/**
 * Judges a data frame against the cursor, in the upstream order: the sequence number
 * first (invalid, replayed duplicate, gap), then stream and payload.
 */
export function judgeDataFrame(frame: RawFrame, cursor: number, scratch?: DecodeScratch): DataDecision {
  const seq = frame.seq;
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) {
    throw new CreateosError("ERR_CREATEOS_SEQUENCE_INVALID", "CreateOS process sequence is invalid.");
  }
  if (seq <= cursor) return { kind: "duplicate" };
  if (seq !== cursor + 1) {
    throw new CreateosError("ERR_CREATEOS_SEQUENCE_GAP", "CreateOS process output has a sequence gap.", {
      details: { expected: cursor + 1, received: seq },
    });
  }
  const stream = frame.stream;
  if (stream !== "stdout" && stream !== "stderr") throw invalidOutput("unknown stream");
  const bytes = decodeCanonicalBase64(frame.data_base64, scratch);
  if (bytes === undefined) throw invalidOutput("data_base64 is not canonical padded base64");
  return { kind: "next", seq, stream, bytes };
}

/**
 * A signal as a server may name it: `SIGKILL`, `KILL`, `SIGRTMIN+3`, or a runtime's own word
 * (`killed`). Short and plain, so it can go into a result and a log line as it is; the
 * exit frame and `wait` apply the same rule.
 */
export function isSignalName(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_+-]{1,32}$/.test(value);
}

/** `{"type":"exit","exit_code":n}` and/or `"signal":"SIGKILL"`. */
export function parseExitFrame(frame: RawFrame): ExitStatus {
  const exitCode = frame.exit_code ?? null;
  const signal = frame.signal ?? null;
  if (exitCode !== null && (typeof exitCode !== "number" || !Number.isSafeInteger(exitCode))) {
    throw invalidOutput("exit_code is not an integer");
  }
  if (signal !== null && !isSignalName(signal)) {
    throw invalidOutput("signal is not a signal name");
  }
  if (exitCode === null && signal === null)
    throw invalidOutput("exit frame has neither exit_code nor signal");
  return { exitCode, signal };
}
