import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineFramer } from "./line-framer.js";

function frame(chunks: readonly Buffer[], max?: number): { lines: string[]; oversized: number[] } {
  const lines: string[] = [];
  const oversized: number[] = [];
  const framer = new LineFramer(
    { onLine: (line) => lines.push(line), onOversized: (bytes) => oversized.push(bytes) },
    max,
  );
  for (const chunk of chunks) framer.push(chunk);
  framer.end();
  return { lines, oversized };
}

describe("LineFramer", () => {
  it("yields the same lines however the bytes are chunked, multi-byte characters included", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: "grapheme", maxLength: 20 }).map((s) => s.replaceAll("\n", "")),
          { maxLength: 8 },
        ),
        fc.array(fc.nat(40)),
        (lines, cuts) => {
          const bytes = Buffer.from(lines.map((line) => `${line}\n`).join(""), "utf8");
          const chunks: Buffer[] = [];
          let start = 0;
          for (const cut of cuts) {
            const end = Math.min(bytes.length, start + cut);
            chunks.push(bytes.subarray(start, end));
            start = end;
          }
          chunks.push(bytes.subarray(start));
          expect(frame(chunks).lines).toEqual(lines);
        },
      ),
    );
  });

  it("drops an oversized line without buffering it, and goes on with the next", () => {
    const result = frame([Buffer.from("a".repeat(6)), Buffer.from("bb\nok\n")], 5);
    expect(result).toEqual({ lines: ["ok"], oversized: [8] });
  });

  it("accepts a line of exactly the limit", () => {
    expect(frame([Buffer.from("12345\n")], 5).lines).toEqual(["12345"]);
  });

  it("keeps a last line without newline and strips a CR", () => {
    expect(frame([Buffer.from("one\r\ntwo")]).lines).toEqual(["one", "two"]);
  });

  it("hands a line that is not UTF-8 to onInvalidText when asked to, else decodes it leniently", () => {
    const bad = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\nok\n')]);
    expect(frame([bad]).lines).toEqual(['{"a":"\ufffd\ufffd"}', "ok"]);
    const lines: string[] = [];
    const invalid: number[] = [];
    const strict = new LineFramer({
      onLine: (line) => lines.push(line),
      onOversized: () => undefined,
      onInvalidText: (bytes) => invalid.push(bytes),
    });
    // A character split across chunks is still whole, and a BOM is kept as the lenient decoding keeps it.
    strict.push(bad.subarray(0, 7));
    strict.push(bad.subarray(7));
    strict.push(Buffer.from("\ufeffé\n", "utf8").subarray(0, 4));
    strict.push(Buffer.from("\ufeffé\n", "utf8").subarray(4));
    expect({ lines, invalid }).toEqual({ lines: ["ok", "\ufeffé"], invalid: [10] });
  });

  it("holds a long line arriving one byte at a time in one buffer, not one object per chunk", () => {
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const lineBytes = 1024 * 1024;
    const source = Buffer.alloc(lineBytes, "x");
    const lines: number[] = [];
    const framer = new LineFramer(
      { onLine: (line) => lines.push(line.length), onOversized: () => undefined },
      4 * lineBytes,
    );
    const held = (): number => {
      collect();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      return heapUsed + arrayBuffers;
    };
    const before = held();
    for (let index = 0; index < lineBytes; index += 1) framer.push(source.subarray(index, index + 1));
    // The line is still open: everything it holds is live. One object per byte would be 50 MiB and more.
    const growth = held() - before;
    framer.push(Buffer.from("\n"));
    expect(lines).toEqual([lineBytes]);
    expect(growth).toBeLessThan(8 * lineBytes);
  });
  it("hands over every byte of an overlong line as it drops it, however the line is chunked", () => {
    fc.assert(
      fc.property(fc.integer({ min: 9, max: 60 }), fc.array(fc.nat(70)), (length, cuts) => {
        const long = Buffer.from("abcdefghijklmnopqrstuvwxyz0123456789".repeat(2).slice(0, length));
        const bytes = Buffer.concat([long, Buffer.from("\nshort\n")]);
        const dropped: Buffer[] = [];
        const ends: number[] = [];
        const lines: string[] = [];
        const framer = new LineFramer(
          {
            onLine: (line) => lines.push(line),
            onOversizedBytes: (piece) => dropped.push(Buffer.from(piece)),
            onOversized: (count) => ends.push(count),
          },
          8,
        );
        let at = 0;
        for (const cut of [...cuts, bytes.length]) {
          const next = Math.min(bytes.length, at + 1 + cut);
          framer.push(bytes.subarray(at, next));
          at = next;
          if (at === bytes.length) break;
        }
        framer.end();
        expect(Buffer.concat(dropped).toString()).toBe(long.toString());
        expect(ends).toEqual([length]);
        expect(lines).toEqual(["short"]);
      }),
    );
  });
});
