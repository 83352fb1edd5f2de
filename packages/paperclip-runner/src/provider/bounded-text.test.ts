import { TRUNCATION_SUFFIX } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { boundedText, MAX_EVENT_TEXT } from "./bounded-text.js";

describe("boundedText", () => {
  it("keeps text of at most 4000 characters as it is", () => {
    expect(boundedText("x".repeat(MAX_EVENT_TEXT))).toBe("x".repeat(MAX_EVENT_TEXT));
    expect(boundedText("😀".repeat(MAX_EVENT_TEXT))).toBe("😀".repeat(MAX_EVENT_TEXT));
  });

  it("cuts longer text to 4000 characters, the truncation marker included (as upstream's runner)", () => {
    const bounded = boundedText("x".repeat(5000));
    expect(bounded).toHaveLength(MAX_EVENT_TEXT);
    expect(bounded).toBe(`${"x".repeat(MAX_EVENT_TEXT - 12)}${TRUNCATION_SUFFIX}`);
  });

  it("counts characters, not UTF-16 units, and never splits a surrogate pair", () => {
    const bounded = boundedText("😀".repeat(MAX_EVENT_TEXT + 1));
    expect(Array.from(bounded)).toHaveLength(MAX_EVENT_TEXT);
    expect(bounded.startsWith("😀".repeat(MAX_EVENT_TEXT - 12))).toBe(true);
    expect(bounded.endsWith(TRUNCATION_SUFFIX)).toBe(true);
  });

  it("redacts before it cuts, so no half secret is left at the cut", () => {
    const secret = `sk-proj-${"A1b2C3d4E5".repeat(4)}`;
    const bounded = boundedText(`${"x".repeat(MAX_EVENT_TEXT - 40)} ${secret} ${"y".repeat(100)}`);
    expect(bounded).not.toContain("sk-proj");
    expect(bounded).toContain("[REDACTED]");
    expect(boundedText(`token ${secret}`)).not.toContain("A1b2C3d4E5");
  });

  it("turns anything but a string into empty text", () => {
    expect(boundedText(undefined)).toBe("");
    expect(boundedText(42)).toBe("");
  });
});
