import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellQuote } from "./shell-quote.js";

describe("shellQuote", () => {
  it("wraps a value in single quotes and closes, escapes and reopens around a quote", () => {
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("")).toBe("''");
  });

  it("is read back by sh as the one word it quoted", () => {
    const values = ["plain", "with space", "it's", "$HOME `id` $(id)", "a\nb", "'", "\\'\"", "*?[x]"];
    const script = `printf '%s\\0' ${values.map(shellQuote).join(" ")}`;
    const words = execFileSync("sh", ["-c", script], { encoding: "utf8" }).split("\0").slice(0, -1);
    expect(words).toEqual(values);
  });
});
