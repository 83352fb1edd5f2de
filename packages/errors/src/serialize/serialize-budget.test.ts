import { describe, expect, it } from "vitest";
import {
  MAX_OUTPUT_CHARS,
  MAX_STRING_BYTES,
  MAX_STRING_READ,
  SerializeBudget,
  TRUNCATED,
} from "./serialize-budget.js";

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe("SerializeBudget", () => {
  it("keeps a short string as redacted", () => {
    expect(new SerializeBudget().text("password=hunter2 ok")).toBe("password=[REDACTED] ok");
  });

  it("redacts before it cuts: a secret across the cut is gone whole", () => {
    // Cut first, the bound would fall inside the value and leave part of it after `token=`.
    const text = `${"a".repeat(MAX_STRING_BYTES - 40)} token=${"s".repeat(64)} ${"b".repeat(100)}`;
    const kept = new SerializeBudget().text(text);
    expect(bytes(kept)).toBeLessThanOrEqual(MAX_STRING_BYTES);
    expect(kept).toContain(" token=[REDACTED] bbb");
    expect(kept).not.toContain("s");
    expect(kept.endsWith("b…[truncated]")).toBe(true);
  });

  it("marks a string read only in part as cut, even when what is kept of it is short", () => {
    const text = `token=${"s".repeat(MAX_STRING_READ + 10)}`;
    expect(new SerializeBudget().text(text)).toBe("token=[REDACTED]…[truncated]");
  });

  it("stops once about MAX_OUTPUT_CHARS were spent, and then costs nothing", () => {
    const budget = new SerializeBudget();
    const big = "x".repeat(MAX_STRING_BYTES);
    let spent = 0;
    while (!budget.exhausted) spent += budget.text(big).length;
    expect(spent).toBeLessThanOrEqual(MAX_OUTPUT_CHARS);
    expect(budget.text(big)).toBe(TRUNCATED);
    expect(budget.takeValue()).toBe(false);
  });

  it("counts the work of strings that redact to almost nothing", () => {
    const budget = new SerializeBudget();
    const dump = `token=${"s".repeat(MAX_STRING_READ)}`;
    let reads = 0;
    while (!budget.exhausted) {
      budget.text(dump);
      reads += 1;
    }
    expect(reads).toBeLessThanOrEqual(17);
  });
});
