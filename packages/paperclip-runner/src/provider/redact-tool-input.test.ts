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
});
