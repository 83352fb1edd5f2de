import { createCipheriv, createDecipheriv } from "node:crypto";
import { RunnerError } from "@paperclipai/errors";
import { MAX_JSON_NESTING, nestsDeeperThan } from "../../provider/json-nesting.js";
import type { SessionKeys } from "./handshake.js";

export const SECURE_FRAME_SCHEMA = "paperclip.runner.secure-frame.v1";
const TAG_BYTES = 16;
const HEX = /^(?:[0-9a-f]{2})+$/;

export interface SecureFrame {
  readonly schema: typeof SECURE_FRAME_SCHEMA;
  readonly counter: number;
  readonly ciphertext: string;
}

/**
 * One connection's encrypted channel: AES-256-GCM, a counter per direction that
 * starts at 0 and must be exact (a replayed, dropped or reordered frame is refused),
 * and the session, direction and counter bound into every frame's AAD.
 */
export class SecureChannel {
  private sendCounter = 0n;
  private receiveCounter = 0n;

  constructor(private readonly keys: SessionKeys) {}

  get sessionId(): string {
    return this.keys.sessionId;
  }

  seal(value: unknown): SecureFrame {
    const counter = this.sendCounter;
    const cipher = createCipheriv("aes-256-gcm", this.keys.sendKey, nonce("P3C1", counter));
    cipher.setAAD(aad(this.keys.sessionId, "client_to_core", counter));
    const sealed = Buffer.concat([
      cipher.update(Buffer.from(JSON.stringify(value))),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    this.sendCounter += 1n;
    return { schema: SECURE_FRAME_SCHEMA, counter: Number(counter), ciphertext: sealed.toString("hex") };
  }

  /** Decrypts the next server frame. Throws `ERR_RUNNER_DURABLE_FRAME_COUNTER` or `ERR_RUNNER_DURABLE_FRAME_INVALID`. */
  open(frame: unknown): unknown {
    if (
      !isRecord(frame) ||
      frame.schema !== SECURE_FRAME_SCHEMA ||
      typeof frame.counter !== "number" ||
      !Number.isSafeInteger(frame.counter) ||
      typeof frame.ciphertext !== "string" ||
      !HEX.test(frame.ciphertext)
    ) {
      throw frameInvalid("the message is not a secure frame", "shape");
    }
    const counter = this.receiveCounter;
    if (BigInt(frame.counter) !== counter) {
      throw new RunnerError(
        "ERR_RUNNER_DURABLE_FRAME_COUNTER",
        `secure frame counter out of order: expected ${counter}, got ${frame.counter}`,
        { details: { expected: Number(counter), received: frame.counter } },
      );
    }
    const sealed = Buffer.from(frame.ciphertext, "hex");
    if (sealed.length < TAG_BYTES) throw frameInvalid("the secure frame has no authentication tag", "tag");
    const decipher = createDecipheriv("aes-256-gcm", this.keys.receiveKey, nonce("P3S1", counter));
    decipher.setAAD(aad(this.keys.sessionId, "core_to_client", counter));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    let plaintext: Buffer;
    try {
      plaintext = Buffer.concat([
        decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      throw frameInvalid("the secure frame failed authentication", "authentication");
    }
    this.receiveCounter += 1n;
    return parseFrameJson(plaintext.toString("utf8"), "the secure frame does not hold JSON");
  }
}

function nonce(prefix: "P3C1" | "P3S1", counter: bigint): Buffer {
  const bytes = Buffer.alloc(12);
  bytes.write(prefix, 0, "ascii");
  bytes.writeBigUInt64BE(counter, 4);
  return bytes;
}

function aad(sessionId: string, direction: "client_to_core" | "core_to_client", counter: bigint): Buffer {
  return Buffer.from(`${SECURE_FRAME_SCHEMA}\0${sessionId}\0${direction}\0${counter}`);
}

/**
 * `text` parsed, as upstream's runner reads a server message: with serde_json, whose recursion
 * limit refuses a value nested deeper than 127 levels. A deeper one (a server's sealed command of
 * 100 000 nested arrays fits a frame) parsed fine here and then overflowed the stack of the first
 * recursive walk over it (the command's fingerprint), which crashed the runner with an uncoded
 * error, again on every redelivery. Throws `ERR_RUNNER_DURABLE_FRAME_INVALID` (`json`, `depth`).
 */
export function parseFrameJson(text: string, notJson: string): unknown {
  if (nestsDeeperThan(text)) {
    throw frameInvalid(`the message nests deeper than ${MAX_JSON_NESTING} levels`, "depth");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw frameInvalid(notJson, "json");
  }
}

export function frameInvalid(message: string, reason: string): RunnerError {
  return new RunnerError("ERR_RUNNER_DURABLE_FRAME_INVALID", `bad secure frame: ${message}`, {
    details: { reason },
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
