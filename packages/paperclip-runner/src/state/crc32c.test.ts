import { describe, expect, it } from "vitest";
import { crc32c } from "./crc32c.js";

describe("crc32c", () => {
  it("matches the published check values", () => {
    expect(crc32c(Buffer.from("123456789"))).toBe(0xe3069283);
    expect(crc32c(Buffer.alloc(0))).toBe(0);
    // RFC 3720 (iSCSI) B.4: 32 bytes of zeros, and of 0xff.
    expect(crc32c(Buffer.alloc(32, 0))).toBe(0x8a9136aa);
    expect(crc32c(Buffer.alloc(32, 0xff))).toBe(0x62a8ab43);
  });

  it("agrees with a byte-at-a-time CRC-32C at every length and alignment", () => {
    const bitwise = (bytes: Uint8Array): number => {
      let crc = -1;
      for (const byte of bytes) {
        crc ^= byte;
        for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
      }
      return (crc ^ -1) >>> 0;
    };
    const bytes = Buffer.from(Array.from({ length: 67 }, (_, index) => (index * 37 + 11) & 0xff));
    for (let start = 0; start < 8; start += 1) {
      for (let end = start; end <= bytes.length; end += 1) {
        expect(crc32c(bytes.subarray(start, end))).toBe(bitwise(bytes.subarray(start, end)));
      }
    }
  });

  it("changes with any one flipped bit", () => {
    const bytes = Buffer.from('{"set":{"nextEventSeq":2},"journal":[],"events":[]}');
    const clean = crc32c(bytes);
    for (let bit = 0; bit < bytes.length * 8; bit += 1) {
      const flipped = Buffer.from(bytes);
      flipped[bit >> 3] = (flipped[bit >> 3] as number) ^ (1 << (bit & 7));
      expect(crc32c(flipped)).not.toBe(clean);
    }
  });
});
