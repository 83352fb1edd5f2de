import { describe, expect, it } from "vitest";
import { redactSecrets } from "../redact-secrets.js";
import { keptProseStart } from "./kept-prose.js";

// The word is the sensitive word at the text's start or after `before`; the answer is read after it.
function startAfterWord(text: string, word: string): number {
  const wordStart = text.indexOf(word);
  return keptProseStart(text, wordStart, wordStart + word.length);
}

describe("keptProseStart", () => {
  it("finds a lowercase word after a whole key and blanks, up to a value's end", () => {
    expect(startAfterWord("the secret manager for", "secret")).toBe(11);
    expect(startAfterWord("auth\t failed", "auth")).toBe(6);
    expect(startAfterWord("api key provided", "api key")).toBe(8);
    expect(startAfterWord("cookie consent,", "cookie")).toBe(7);
    expect(startAfterWord("(secret rotation;", "secret")).toBe(8);
    expect(startAfterWord("secret regularly", "secret")).toBe(7);
    expect(startAfterWord("API key provided.", "API key")).toBe(8);
    expect(startAfterWord("auth failed. Retry", "auth")).toBe(5);
  });

  it("leaves to the reader a key that starts before the word, a reference, a path or a flag", () => {
    expect(startAfterWord("my_secret manager", "secret")).toBe(-1);
    expect(startAfterWord("$secret manager", "secret")).toBe(-1);
    expect(startAfterWord("%secret manager", "secret")).toBe(-1);
    expect(startAfterWord("/run/secret manager", "secret")).toBe(-1);
    expect(startAfterWord("C:\\secret manager", "secret")).toBe(-1);
    expect(startAfterWord("--secret manager", "secret")).toBe(-1);
    expect(startAfterWord("\\nsecret manager", "secret")).toBe(-1);
  });

  it("leaves to the reader a value that is no lowercase word, runs on, or names a scheme", () => {
    expect(startAfterWord("secret=manager", "secret")).toBe(-1);
    expect(startAfterWord("secret Manager", "secret")).toBe(-1);
    expect(startAfterWord("secret manager1", "secret")).toBe(-1);
    expect(startAfterWord("secret manager..", "secret")).toBe(-1);
    expect(startAfterWord("secret manager.x", "secret")).toBe(-1);
    expect(startAfterWord("secret manager:", "secret")).toBe(-1);
    expect(startAfterWord("secret manager\u2000x", "secret")).toBe(-1);
    expect(startAfterWord(`secret ${"a".repeat(65)}`, "secret")).toBe(-1);
    expect(startAfterWord("token bearer abc123", "token")).toBe(-1);
    expect(startAfterWord("token apikey\tabc123", "token")).toBe(-1);
    expect(startAfterWord('token "manager"', "token")).toBe(-1);
  });

  it("admits a scheme's name that no blank follows, which is no scheme", () => {
    expect(startAfterWord("token bearer", "token")).toBe(6);
    expect(startAfterWord("token bearerx y", "token")).toBe(6);
  });

  it("answers only where the rule keeps the value", () => {
    for (const text of ["the secret manager for", "auth failed.", "api key provided", "token bearer"]) {
      expect(redactSecrets(text)).toBe(text);
    }
    expect(redactSecrets("token bearer abc123def456")).toBe("token bearer [REDACTED]");
    expect(redactSecrets("--secret manager")).toBe("--secret [REDACTED]");
  });
});
