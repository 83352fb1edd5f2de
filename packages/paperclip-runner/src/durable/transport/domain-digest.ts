import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";

/**
 * The PRP's framing for digests and MACs: the label, a zero byte, then each part
 * as a big-endian u64 length followed by its bytes. Lengths make the parts
 * unambiguous, so no two part lists hash alike.
 */
function frame<T extends Hash | Hmac>(hash: T, label: string, parts: readonly Uint8Array[]): Buffer {
  hash.update(label).update(Buffer.from([0]));
  for (const part of parts) {
    const length = Buffer.alloc(8);
    length.writeBigUInt64BE(BigInt(part.length));
    hash.update(length).update(part);
  }
  return hash.digest();
}

/** `D(label, parts)`: SHA-256 over the framed parts. */
export function domainDigest(label: string, parts: readonly Uint8Array[]): Buffer {
  return frame(createHash("sha256"), label, parts);
}

/** `H(key, label, parts)`: HMAC-SHA-256 over the framed parts. */
export function domainHmac(key: Uint8Array, label: string, parts: readonly Uint8Array[]): Buffer {
  return frame(createHmac("sha256", key), label, parts);
}
