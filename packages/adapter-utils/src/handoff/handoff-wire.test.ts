import { describe, expect, it } from "vitest";
import { connectionId } from "./handoff-wire.js";

describe("connectionId", () => {
  it("is 8 big-endian bytes on the wire and their 16 hex digits in courier messages", () => {
    expect(connectionId(1n)).toEqual({
      bytes: Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]),
      hex: "0000000000000001",
    });
    const large = connectionId(0x0123456789abcdefn);
    expect(large.bytes).toEqual(Buffer.from("0123456789abcdef", "hex"));
    expect(large.hex).toBe("0123456789abcdef");
  });

  it("wraps past 64 bits instead of throwing", () => {
    expect(connectionId(2n ** 64n + 5n).hex).toBe("0000000000000005");
  });
});
