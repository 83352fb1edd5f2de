import { describe, expect, it } from "vitest";
import { Utf8StreamDecoder } from "./utf8-stream-decoder.js";

describe("Utf8StreamDecoder", () => {
  it("joins characters split across frames, per stream", () => {
    const decoder = new Utf8StreamDecoder();
    const emoji = Buffer.from("🙂");
    const accent = Buffer.from("é");
    expect(decoder.decode("stdout", emoji.subarray(0, 2))).toBe("");
    expect(decoder.decode("stderr", accent.subarray(0, 1))).toBe("");
    expect(decoder.decode("stdout", emoji.subarray(2))).toBe("🙂");
    expect(decoder.decode("stderr", Buffer.concat([accent.subarray(1), Buffer.from("x")]))).toBe("éx");
  });

  it("keeps a leading BOM and replaces invalid bytes", () => {
    const decoder = new Utf8StreamDecoder();
    expect(decoder.decode("stdout", Buffer.from("\ufeffa"))).toBe("\ufeffa");
    expect(decoder.decode("stdout", Uint8Array.of(0xff, 0x41))).toBe("\ufffdA");
  });

  it("flushes an unfinished character at the end", () => {
    const decoder = new Utf8StreamDecoder();
    expect(decoder.decode("stdout", Uint8Array.of(0xe2, 0x82))).toBe("");
    expect(decoder.flush("stdout")).toBe("\ufffd");
    expect(decoder.flush("stderr")).toBe("");
  });
});
