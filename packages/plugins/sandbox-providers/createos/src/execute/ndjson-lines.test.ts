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
