import { TRUNCATION_SUFFIX } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { redactToolInput } from "./redact-tool-input.js";

const SECRET = `sk-proj-${"A1b2C3d4E5".repeat(4)}`;

describe("redactToolInput", () => {
  it("redacts secrets in every string, however deep, keeping keys and shape", () => {
    expect(
      redactToolInput({ body: `the key is ${SECRET}`, list: [{ note: `ghp_${"Z9y8X7w6V5".repeat(4)}` }, 3] }),
    ).toEqual({ body: "the key is [REDACTED]", list: [{ note: "[REDACTED]" }, 3] });
  });

  it("leaves an input without secrets as it is", () => {
    const input = { body: "half way", done: false, count: 2, nothing: null, tags: ["a", "b"] };
    expect(redactToolInput(input)).toEqual(input);
  });

  it("bounds every long string as event text, as upstream's runner hands a long input on", () => {
    const long = `large: ${"0123456789abcdef𝄞 ".repeat(300)}end`;
    const bounded = redactToolInput({ body: long, list: ["x".repeat(5000)] }) as {
      body: string;
      list: string[];
    };
    // Cut within 4096 UTF-8 bytes, never inside the 4-byte character (as the `further` oracle measured).
    expect(bounded.body).toBe(`${long.slice(0, 7 + 194 * 19 + 15)}${TRUNCATION_SUFFIX}`);
    expect(bounded.list).toEqual([`${"x".repeat(3988)}${TRUNCATION_SUFFIX}`]);
  });
});
