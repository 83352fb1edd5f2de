import { describe, expect, it } from "vitest";
import { MAX_PRINTED_FLAG_BYTES, printableFlag } from "./printable-flag.js";

describe("printableFlag", () => {
  it("keeps a plain flag name", () => {
    expect(printableFlag("--future-flag")).toBe("--future-flag");
    expect(printableFlag("--x")).toBe("--x");
  });

  it("never echoes a --name=value value, secret-shaped or not", () => {
    expect(printableFlag("--api-key=sk-abcdefghijklmnop")).toBe("--api-key=[REDACTED]");
    expect(printableFlag("--mode=hunter2")).toBe("--mode=[REDACTED]");
    expect(printableFlag("--empty=")).toBe("--empty=[REDACTED]");
  });

  it("redacts a token spelled as the flag name itself", () => {
    for (const token of [
      "sk-proj-abcdefghijklmnop",
      "ghp_abcdefghijklmnopqrstuvwxyz12",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fw",
    ]) {
      const printed = printableFlag(`--${token}`);
      expect(printed.startsWith("--")).toBe(true);
      expect(printed).not.toContain(token.slice(4, 16));
    }
  });

  it("is bounded", () => {
    const printed = printableFlag(`--${"a".repeat(1000)}`);
    expect(Buffer.byteLength(printed)).toBeLessThanOrEqual(MAX_PRINTED_FLAG_BYTES);
  });
});
