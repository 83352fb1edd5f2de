import { describe, expect, it } from "vitest";
import { boundedRedactedDiagnostic, DIAGNOSTIC_BYTE_LIMIT } from "./bounded-redacted-diagnostic.js";

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

describe("boundedRedactedDiagnostic", () => {
  it.each([
    ["Bearer abcdefghijkl", "Bearer [REDACTED]"],
    ["request failed token secret-value", "request failed token [REDACTED]"],
    [
      "Use a secret manager for credential handling and bearer authentication.",
      "Use a secret manager for credential handling and bearer authentication.",
    ],
    [
      "Invalid API key: sk-proj-provider-secret; request rejected",
      "Invalid API key: [REDACTED]; request rejected",
    ],
    [
      "OPENAI_API_KEY first-secret; proxyAuthorization Basic dXNlcjpwYXNz",
      "OPENAI_API_KEY [REDACTED]; proxyAuthorization Basic [REDACTED]",
    ],
    ['password=abc"defg status=403', "password=[REDACTED] status=403"],
  ])("redacts the spec vector %j", (input, expected) => {
    expect(boundedRedactedDiagnostic(input)).toBe(expected);
  });

  it("redacts before bounding a 256 KiB message", () => {
    const input = `OPENAI_API_KEY=raw-secret Authorization: Bearer another-secret${"x".repeat(256 * 1024)}`;
    const output = boundedRedactedDiagnostic(input);
    expect(output).not.toContain("raw-secret");
    expect(output).not.toContain("another-secret");
    expect(output).toContain("[REDACTED]");
    expect(output.endsWith("\u2026[truncated]")).toBe(true);
    expect(bytes(output)).toBeLessThanOrEqual(DIAGNOSTIC_BYTE_LIMIT);
  });

  it("redacts a secret that straddles the cut, where cutting first would leave its head", () => {
    const filler = "y ".repeat((DIAGNOSTIC_BYTE_LIMIT - 20) / 2);
    const secret = "sk-live-0123456789abcdefghij";
    const output = boundedRedactedDiagnostic(`${filler}${secret} tail`);
    expect(output).not.toContain("sk-live");
    expect(bytes(output)).toBeLessThanOrEqual(DIAGNOSTIC_BYTE_LIMIT);
  });

  it("leaves a message at the limit whole, and cuts one byte more", () => {
    const exact = "a".repeat(DIAGNOSTIC_BYTE_LIMIT);
    expect(boundedRedactedDiagnostic(exact)).toBe(exact);
    const over = boundedRedactedDiagnostic(`${exact}b`);
    expect(bytes(over)).toBe(DIAGNOSTIC_BYTE_LIMIT);
    expect(over.endsWith("\u2026[truncated]")).toBe(true);
  });

  it("cuts on a character boundary and stays valid UTF-8", () => {
    for (const unit of ["é", "€", "😀"]) {
      const output = boundedRedactedDiagnostic(unit.repeat(DIAGNOSTIC_BYTE_LIMIT));
      expect(bytes(output)).toBeLessThanOrEqual(DIAGNOSTIC_BYTE_LIMIT);
      expect(Buffer.from(output, "utf8").toString("utf8")).toBe(output);
      expect(output.replace("\u2026[truncated]", "").split("").length % unit.length).toBe(0);
      expect(output).not.toContain("\uFFFD");
    }
  });

  it("replaces lone surrogates instead of writing invalid UTF-8", () => {
    const output = boundedRedactedDiagnostic("broken \uD800 surrogate");
    expect(output).toBe("broken \uFFFD surrogate");
  });
});
