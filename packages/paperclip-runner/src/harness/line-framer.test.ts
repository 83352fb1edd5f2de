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
});
