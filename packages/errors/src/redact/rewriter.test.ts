import { describe, expect, it } from "vitest";
import { Rewriter } from "./rewriter.js";

describe("Rewriter", () => {
  it("returns the text itself when nothing is replaced", () => {
    const text = "nothing to hide";
    expect(new Rewriter(text, "[R]").finish()).toBe(text);
  });

  it("replaces each span, across the chunks its gaps are joined in", () => {
    // 3000 replacements: the gaps are joined in chunks of 1024, each ending with a replacement.
    const text = Array.from({ length: 3000 }, (_, index) => `k=v${index};`).join("");
    const rewriter = new Rewriter(text, "[R]");
    for (let at = text.indexOf("=v"); at !== -1; at = text.indexOf("=v", at + 1)) {
      rewriter.replace(at + 1, text.indexOf(";", at));
    }
    expect(rewriter.replacements).toBe(3000);
    expect(rewriter.finish()).toBe("k=[R];".repeat(3000));
  });

  it("keeps the replacements at the start and at the end of the text", () => {
    const rewriter = new Rewriter("secret and secret", "[R]");
    rewriter.replace(0, 6);
    rewriter.replace(11, 17);
    expect(rewriter.replacedUpTo).toBe(17);
    expect(rewriter.finish()).toBe("[R] and [R]");
  });

  it("repeats the last replacement by its period, between replacements made one by one", () => {
    const text = "a=1 b=2 b=2 b=2 c=3 d";
    const rewriter = new Rewriter(text, "[R]");
    rewriter.replace(2, 3);
    rewriter.replace(6, 7);
    // `b=2 ` twice more, four characters apart.
    rewriter.repeatLast(4, 2);
    rewriter.replace(18, 19);
    expect(rewriter.replacements).toBe(5);
    expect(rewriter.finish()).toBe("a=[R] b=[R] b=[R] b=[R] c=[R] d");
  });

  it("makes replacements each after the same gap at once, between ones made one by one", () => {
    const text = "k=1;k=22;k=333;k=4;x=5";
    const rewriter = new Rewriter(text, "[R]");
    rewriter.replace(2, 3);
    // `22`, `333` and `4`, each after `;k=`.
    rewriter.replaceAfterEach(";k=", 3, 17, 18);
    rewriter.replace(21, 22);
    expect(rewriter.replacements).toBe(5);
    expect(rewriter.replacedUpTo).toBe(22);
    expect(rewriter.finish()).toBe("k=[R];k=[R];k=[R];k=[R];x=[R]");
  });

  it("writes replacements after the same gap as one stretch, in order with the others", () => {
    // Five values after `;k=`, then a longer gap, then two after `;k=` again.
    const text = "k=1;k=2;k=3;k=4;k=5;xx;k=6;k=7;k=8";
    const rewriter = new Rewriter(text, "[R]");
    for (let at = text.indexOf("="); at !== -1; at = text.indexOf("=", at + 1))
      rewriter.replace(at + 1, at + 2);
    expect(rewriter.replacements).toBe(8);
    expect(rewriter.finish()).toBe("k=[R];k=[R];k=[R];k=[R];k=[R];xx;k=[R];k=[R];k=[R]");
  });

  it("keeps the same gaps before a repeat or a run written at once, and empty gaps", () => {
    const text = "a=1 a=2 b=3 b=3 b=3 k=4;k=5;z=66";
    const rewriter = new Rewriter(text, "[R]");
    rewriter.replace(2, 3);
    rewriter.replace(6, 7);
    rewriter.replace(10, 11);
    // `b=3 ` twice more, four characters apart.
    rewriter.repeatLast(4, 2);
    rewriter.replace(22, 23);
    // `5`, after `;k=`.
    rewriter.replaceAfterEach(";k=", 1, 26, 27);
    // `66` as two replacements with an empty gap between them.
    rewriter.replace(30, 31);
    rewriter.replace(31, 32);
    expect(rewriter.finish()).toBe("a=[R] a=[R] b=[R] b=[R] b=[R] k=[R];k=[R];z=[R][R]");
  });

  it("replaces after gaps of the same text too long to compare", () => {
    const gap = `;${"x".repeat(40)}=`;
    const text = `=1${gap}2${gap}3`;
    const rewriter = new Rewriter(text, "[R]");
    for (let at = text.indexOf("="); at !== -1; at = text.indexOf("=", at + 1))
      rewriter.replace(at + 1, at + 2);
    expect(rewriter.finish()).toBe(`=[R]${gap}[R]${gap}[R]`);
  });

  it("replaces after gaps of one length that differ, then are the same", () => {
    // `;a=` then `;b=` three times: once two gaps of a length differed, that length is not compared.
    const text = "k=1;a=2;b=3;b=4;b=5";
    const rewriter = new Rewriter(text, "[R]");
    for (let at = text.indexOf("="); at !== -1; at = text.indexOf("=", at + 1))
      rewriter.replace(at + 1, at + 2);
    expect(rewriter.replacements).toBe(5);
    expect(rewriter.finish()).toBe("k=[R];a=[R];b=[R];b=[R];b=[R]");
  });
});
