/** Secure frames as the server seals and opens them (the server side of `src/durable/transport`). */
import { createCipheriv, createDecipheriv } from "node:crypto";

export interface SessionKeys {
  readonly sessionId: string;
  /** Server to runner. */
  readonly sendKey: Buffer;
  /** Runner to server. */
  readonly receiveKey: Buffer;
}

/** `text` sealed as the server's frame number `counter`. */
export function sealFrame(keys: SessionKeys, counter: bigint, text: string): string {
  const cipher = createCipheriv("aes-256-gcm", keys.sendKey, nonce("P3S1", counter));
  cipher.setAAD(aad(keys.sessionId, "core_to_client", counter));
  const sealed = Buffer.concat([cipher.update(Buffer.from(text)), cipher.final(), cipher.getAuthTag()]);
  return JSON.stringify({
    schema: "paperclip.runner.secure-frame.v1",
    counter: Number(counter),
    ciphertext: sealed.toString("hex"),
  });
}

/** The message in the runner's frame `text`, which must be its frame number `counter`. */
export function openFrame(keys: SessionKeys, counter: bigint, text: string): Record<string, unknown> {
  const frame = JSON.parse(text) as { counter: number; ciphertext: string };
  if (BigInt(frame.counter) !== counter) throw new Error(`runner counter ${frame.counter}`);
  const sealed = Buffer.from(frame.ciphertext, "hex");
  const decipher = createDecipheriv("aes-256-gcm", keys.receiveKey, nonce("P3C1", counter));
  decipher.setAAD(aad(keys.sessionId, "client_to_core", counter));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
  return JSON.parse(plain.toString("utf8")) as Record<string, unknown>;
}

function nonce(prefix: string, counter: bigint): Buffer {
  const bytes = Buffer.alloc(12);
  bytes.write(prefix, 0, "ascii");
  bytes.writeBigUInt64BE(counter, 4);
  return bytes;
}

function aad(sessionId: string, direction: string, counter: bigint): Buffer {
  return Buffer.from(`paperclip.runner.secure-frame.v1\0${sessionId}\0${direction}\0${counter}`);
}
