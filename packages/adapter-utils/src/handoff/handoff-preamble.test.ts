import { describe, expect, it } from "vitest";
import { HANDOFF_PREAMBLE_LENGTH, HANDOFF_PREAMBLE_MAGIC, matchHandoffPreamble } from "./handoff-preamble.js";

const preamble = (idHex: string) => Buffer.concat([HANDOFF_PREAMBLE_MAGIC, Buffer.from(idHex, "hex")]);

describe("matchHandoffPreamble", () => {
  it("reads the id and returns what follows it", () => {
    const request = Buffer.from("CONNECT a.test:443 HTTP/1.1\r\n\r\n");
    const match = matchHandoffPreamble(Buffer.concat([preamble("00ff10203040a0b1"), request]));
    expect(match).toEqual({ status: "handoff", id: "00ff10203040a0b1", rest: request });
    expect(HANDOFF_PREAMBLE_LENGTH).toBe(13);
  });

  it("tells a plain HTTP client from a preamble at the first differing byte", () => {
    expect(matchHandoffPreamble(Buffer.from("CONNECT a.test:443 HTTP/1.1\r\n"))).toEqual({ status: "none" });
    expect(matchHandoffPreamble(Buffer.from("\0PCX1aaaaaaaa"))).toEqual({ status: "none" });
    expect(matchHandoffPreamble(Buffer.from([0x00, 0x51]))).toEqual({ status: "none" });
  });

  it("waits while the bytes so far are a prefix of a preamble", () => {
    expect(matchHandoffPreamble(Buffer.alloc(0))).toEqual({ status: "partial" });
    expect(matchHandoffPreamble(Buffer.from("\0PC"))).toEqual({ status: "partial" });
    expect(matchHandoffPreamble(preamble("0102030405060708").subarray(0, 12))).toEqual({ status: "partial" });
  });
});
