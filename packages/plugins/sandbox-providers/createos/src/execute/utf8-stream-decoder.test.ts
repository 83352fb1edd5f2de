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

  it("says when a text is ASCII bytes copied as they are", () => {
    const decoder = new Utf8StreamDecoder();
    expect(decoder.decode("stdout", Buffer.from("plain\n"))).toBe("plain\n");
    expect(decoder.lastWasAscii).toBe(true);
    expect(decoder.decode("stdout", Buffer.from("é"))).toBe("é");
    expect(decoder.lastWasAscii).toBe(false);
    // ASCII bytes after an unfinished character: the held bytes come out with them.
    expect(decoder.decode("stdout", Uint8Array.of(0xe2))).toBe("");
    expect(decoder.decode("stdout", Buffer.from("x"))).toBe("\ufffdx");
    expect(decoder.lastWasAscii).toBe(false);
    expect(decoder.decode("stdout", Buffer.from("y"))).toBe("y");
    expect(decoder.lastWasAscii).toBe(true);
  });

  it("flushes an unfinished character at the end", () => {
    const decoder = new Utf8StreamDecoder();
    expect(decoder.decode("stdout", Uint8Array.of(0xe2, 0x82))).toBe("");
    expect(decoder.flush("stdout")).toBe("\ufffd");
    expect(decoder.flush("stderr")).toBe("");
  });
});

describe("Utf8StreamDecoder against one streaming TextDecoder", () => {
  /** A tiny deterministic generator, so a failure replays from its seed. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
  }
  const pieces = [
    Buffer.from("plain ascii text\n"),
    Buffer.from("é🙂€"),
    Uint8Array.of(0xff),
    Uint8Array.of(0xe2, 0x82),
    Uint8Array.of(0xf0, 0x9f),
    Buffer.from("\ufeff"),
  ];

  it.each([1, 2, 3, 4, 5, 6, 7, 8])("gives the same text for any bytes cut anywhere (seed %i)", (seed) => {
    const next = random(seed);
    const parts: Uint8Array[] = [];
    for (let index = 0; index < 60; index += 1)
      parts.push(pieces[Math.floor(next() * pieces.length)] as Uint8Array);
    const all = Buffer.concat(parts);
    const reference = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
    const decoder = new Utf8StreamDecoder();
    let ours = "";
    let theirs = "";
    for (let at = 0; at < all.length; ) {
      const size = 1 + Math.floor(next() * 24);
      const chunk = all.subarray(at, at + size);
      const text = decoder.decode("stdout", chunk);
      if (decoder.lastWasAscii) expect(text).toMatch(/^[\x00-\x7f]*$/);
      ours += text;
      theirs += reference.decode(chunk, { stream: true });
      at += size;
    }
    expect(ours + decoder.flush("stdout")).toBe(theirs + reference.decode());
  });
});
