import { describe, expect, it } from "vitest";
import { RunValues } from "./run-values.js";

describe("RunValues", () => {
  it("takes each value as the span the judges read, the same object each time", () => {
    const text = "--token a1 --token b22";
    const values = new RunValues("first", true);
    expect(values.take(text, 8, 10)).toBe(true);
    const span = values.span;
    expect(span).toEqual({ start: 8, end: 10, text: "a1", quoted: true, readEnd: 11 });
    expect(values.take(text, 19, 22)).toBe(true);
    expect(values.span).toBe(span);
    expect(span).toEqual({ start: 19, end: 22, text: "b22", quoted: true, readEnd: 23 });
  });

  it("refuses a value equal to the one before, the run's first included, and keeps the span", () => {
    const text = "k=v1&k=v1&k=v2&k=v2";
    const values = new RunValues("v1", false);
    expect(values.take(text, 2, 4)).toBe(false);
    expect(values.take(text, 12, 14)).toBe(true);
    expect(values.take(text, 17, 19)).toBe(false);
    expect(values.span).toMatchObject({ start: 12, end: 14, text: "v2" });
  });
});
