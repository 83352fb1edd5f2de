import { describe, expect, it } from "vitest";
import { assemble, run } from "./bpf-program.js";

describe("assemble", () => {
  it("resolves labels to forward offsets", () => {
    const program = assemble([
      { op: "load", offset: 0 },
      { op: "jeq", value: 7, whenTrue: "yes", whenFalse: null },
      { op: "return", value: 1 },
      { op: "label", name: "yes" },
      { op: "return", value: 2 },
    ]);
    expect(program[1]).toEqual({ code: 0x15, jt: 1, jf: 0, k: 7 });
    expect(run(program, () => 7)).toBe(2);
    expect(run(program, () => 8)).toBe(1);
  });

  it("refuses undefined, duplicate and backward labels", () => {
    expect(() => assemble([{ op: "jeq", value: 1, whenTrue: "nowhere", whenFalse: null }])).toThrow(
      /not defined/,
    );
    expect(() =>
      assemble([
        { op: "label", name: "a" },
        { op: "label", name: "a" },
      ]),
    ).toThrow(/twice/);
    expect(() =>
      assemble([
        { op: "label", name: "back" },
        { op: "return", value: 0 },
        { op: "jeq", value: 1, whenTrue: "back", whenFalse: null },
      ]),
    ).toThrow(/out of range/);
  });
});
