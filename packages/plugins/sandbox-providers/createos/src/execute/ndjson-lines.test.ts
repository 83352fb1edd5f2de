import { describe, expect, it } from "vitest";
import { NdjsonLineSplitter } from "./ndjson-lines.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (lines: Buffer[]) => lines.map((line) => line.toString("utf8"));

describe("NdjsonLineSplitter", () => {
  it("splits lines within and across chunks", () => {
    const splitter = new NdjsonLineSplitter(100);
    expect(text(splitter.push(bytes('{"a":1}\n{"b"')))).toEqual(['{"a":1}']);
    expect(splitter.pendingBytes).toBe(4);
    expect(text(splitter.push(bytes(":2")))).toEqual([]);
    expect(text(splitter.push(bytes('}\n\n{"c":3}\n')))).toEqual(['{"b":2}', "", '{"c":3}']);
    expect(splitter.pendingBytes).toBe(0);
  });

  it("hands over the unfinished last line once", () => {
    const splitter = new NdjsonLineSplitter(100);
    expect(text(splitter.push(bytes('{"a":1}\n{"type":"ex')))).toEqual(['{"a":1}']);
    splitter.push(bytes('it"}'));
    expect(splitter.takeRest()).toBe('{"type":"exit"}');
    expect(splitter.pendingBytes).toBe(0);
    expect(splitter.takeRest()).toBe("");
  });

  it("keeps multi-byte characters split across chunks intact", () => {
    const splitter = new NdjsonLineSplitter(100);
    const all = bytes('"é🙂"\n');
    const lines: string[] = [];
    for (const byte of all) lines.push(...text(splitter.push(Uint8Array.of(byte))));
    expect(lines).toEqual(['"é🙂"']);
  });

  it("does not alias the caller's buffer for a partial line", () => {
    const splitter = new NdjsonLineSplitter(100);
    const chunk = bytes("abc");
    splitter.push(chunk);
    chunk.fill(0x7a);
    expect(text(splitter.push(bytes("\n")))).toEqual(["abc"]);
  });

  it("rejects an overlong line, partial or complete", () => {
    expect(() => new NdjsonLineSplitter(3).push(bytes("abcd"))).toThrow(
      "CreateOS process output is invalid.",
    );
    expect(() => new NdjsonLineSplitter(3).push(bytes("abcd\n"))).toThrow(
      "CreateOS process output is invalid.",
    );
    const splitter = new NdjsonLineSplitter(3);
    splitter.push(bytes("ab"));
    expect(() => splitter.push(bytes("cd\n"))).toThrow(
      expect.objectContaining({ code: "ERR_CREATEOS_OUTPUT_INVALID" }),
    );
  });
});

describe("NdjsonLineSplitter's reused buffers", () => {
  it("keeps the lines of one push intact while the next unfinished line is gathered", () => {
    const splitter = new NdjsonLineSplitter(1 << 20);
    const frame = (index: number) => `{"n":${index},"pad":"${"x".repeat(5000 + index)}"}`;
    const all = Buffer.from(Array.from({ length: 40 }, (_, index) => `${frame(index)}\n`).join(""));
    const seen: string[] = [];
    // Chunks smaller and larger than a line, so lines span chunks and chunks hold several lines.
    for (let at = 0, size = 3000; at < all.length; at += size, size = size === 3000 ? 11_000 : 3000) {
      const chunk = Uint8Array.from(all.subarray(at, at + size));
      seen.push(...text(splitter.push(chunk)));
      // The reader reuses its memory once the lines are read.
      chunk.fill(0x21);
    }
    expect(seen).toEqual(Array.from({ length: 40 }, (_, index) => frame(index)));
  });
});
