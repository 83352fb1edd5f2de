import { describe, expect, it } from "vitest";
import { redactSecrets } from "../redact-secrets.js";
import { mayStartSecondWord } from "./key-candidates.js";

describe("mayStartSecondWord", () => {
  it("is true for the first letter of a second word, in either case", () => {
    for (const letter of ["k", "K", "s", "S"]) expect(mayStartSecondWord(letter.charCodeAt(0))).toBe(true);
  });

  it("is false for what starts most flags' values, and past the text's end", () => {
    for (const start of ["v", "1", "-", "[", '"'])
      expect(mayStartSecondWord(start.charCodeAt(0))).toBe(false);
    expect(mayStartSecondWord("".charCodeAt(0))).toBe(false);
  });

  it("lets a flag's two-word key through to its value", () => {
    expect(redactSecrets("run --secret key s3cr3t-value --api KEY abc123def")).toBe(
      "run --secret key [REDACTED] --api KEY [REDACTED]",
    );
  });
});
