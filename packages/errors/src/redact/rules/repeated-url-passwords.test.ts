import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAlnum } from "../char-classes.js";
import type { RedactionContext } from "../redaction-context.js";
import { Rewriter } from "../rewriter.js";
import { redactRepeatedUrls, repeatedPasswordsSource } from "./repeated-url-passwords.js";
import { redactUrlCredentials } from "./url-credentials.js";

const contextOf = (replacement = "[R]"): RedactionContext => ({ replacement, steps: 0 });

/**
 * The URL rule as it reads without the run reader: each `://` after a letter or digit, its
 * userinfo up to the last `@` (at most 1024 characters), a password redacted unless empty or
 * already the replacement, a colonless user only when it looks like a token.
 */
function oneUrlAtATime(text: string, replacement: string): string {
  let result = "";
  let copied = 0;
  for (let scheme = text.indexOf("://", 1); scheme !== -1; scheme = text.indexOf("://", scheme + 3)) {
    if (!isAlnum(text.charCodeAt(scheme - 1))) continue;
    const userStart = scheme + 3;
    const userinfo =
      /^[^\t-\r /?#"<>`\\\u00a0\u2028\u2029]*/.exec(text.slice(userStart, userStart + 1024))?.[0] ?? "";
    const at = userStart + userinfo.lastIndexOf("@");
    if (at < userStart || !isAlnum(text.charCodeAt(at + 1))) continue;
    const beforeAt = userinfo.slice(0, at - userStart);
    const colon = beforeAt.split("@")[0]?.indexOf(":") ?? -1;
    const start = colon === -1 ? userStart : userStart + colon + 1;
    const secret = text.slice(start, at);
    const redact =
      colon === -1
        ? /^[A-Za-z0-9._~-]{20,}$/.test(secret) && /[0-9]/.test(secret) && /[A-Za-z]/.test(secret)
        : secret !== "" && secret !== replacement;
    if (redact) {
      result += text.slice(copied, start) + replacement;
      copied = at;
    }
    scheme = Math.max(scheme, at - 2);
  }
  return result + text.slice(copied);
}

describe("repeatedPasswordsSource", () => {
  const pattern = new RegExp(repeatedPasswordsSource("@h/ x://u:", "[R]", 9, 2), "y");
  const matches = (text: string) => {
    pattern.lastIndex = 0;
    return pattern.test(text);
  };

  it("matches passwords of any character but what ends a userinfo and its `@`, each before the gap", () => {
    expect(matches("ab@h/ x://u:cd@h/ x://u:")).toBe(true);
    expect(matches("a:é!@h/ x://u:[R]x@h/ x://u:")).toBe(true);
    for (const char of [" ", "\t", "/", "?", "#", '"', "<", ">", "`", "\\", "\u00a0", "\u2028", "@"])
      expect(matches(`a${char}b@h/ x://u:cd@h/ x://u:`), JSON.stringify(char)).toBe(false);
  });

  it("matches no password that is empty, longer than the bound or the replacement already", () => {
    expect(matches("@h/ x://u:cd@h/ x://u:")).toBe(false);
    expect(matches(`${"a".repeat(10)}@h/ x://u:cd@h/ x://u:`)).toBe(false);
    expect(matches("[R]@h/ x://u:cd@h/ x://u:")).toBe(false);
    expect(matches("ab@h/ x://u:cd@h/ x://v:")).toBe(false);
  });
});

describe("redactRepeatedUrls", () => {
  const unit = (index: number) => `http://u:p${index}@h/ `;
  const run = (count: number) => Array.from({ length: count }, (_, index) => unit(index)).join("");

  it("redacts each password while the gap repeats, and returns the `@` after the last", () => {
    // Two passwords redacted one by one (the second ends at 26), then the run: 300 more, 32 at a time past 128.
    const text = `${run(302)}http://u:p@x/`;
    const rewriter = new Rewriter(text, "[R]");
    rewriter.replace(9, 11);
    rewriter.replace(24, 26);
    const lastAt = redactRepeatedUrls(text, 11, 24, 26, rewriter, contextOf());
    expect(lastAt).toBe(text.lastIndexOf("@h/"));
    expect(rewriter.replacements).toBe(302);
    expect(rewriter.finish()).toBe(`${"http://u:[R]@h/ ".repeat(302)}http://u:p@x/`);
  });

  it("redacts nothing when the gap does not follow the password again", () => {
    const text = "http://u:p0@h/ http://u:p1@h/ http://u:p2@i/ ";
    const rewriter = new Rewriter(text, "[R]");
    rewriter.replace(9, 11);
    rewriter.replace(24, 26);
    expect(redactRepeatedUrls(text, 11, 24, 26, rewriter, contextOf())).toBe(26);
    expect(rewriter.replacements).toBe(2);
  });
});

describe("redactUrlCredentials on runs of a repeated URL", () => {
  const pieces = (values: readonly string[]) => fc.constantFrom(...values);
  // Users, hosts, separators and passwords that hold what changes the rule's reading: `@`, `:`,
  // what ends a userinfo, the replacement, and passwords about the userinfo's bound.
  const password = fc.oneof(
    fc.nat(99_999).map((index) => `p${index}`),
    pieces(["[R]", "", "a@b", "a:b", "a b", "é\u00a0", "x/y", "p@"]),
    fc.integer({ min: 1010, max: 1030 }).map((length) => "x".repeat(length)),
  );
  const units = fc
    .record({
      scheme: pieces(["http", "x1", "-", "redis", "a+b"]),
      user: pieces(["u", "", "a@b", "u:x", "us er"]),
      host: pieces(["h", "db:5432", "@h", "-h", ""]),
      after: pieces(["/ ", " ", "/p?q=1 ", "\n", "/x@y ", " see http://v:", "://"]),
      passwords: fc.array(fc.tuple(fc.nat(20), password), { maxLength: 8 }),
      count: fc.integer({ min: 1, max: 200 }),
    })
    .map(({ scheme, user, host, after, passwords, count }) => {
      const changed = new Map(passwords.map(([at, value]) => [at * 9, value]));
      return Array.from(
        { length: count },
        (_, index) => `${scheme}://${user}:${changed.get(index) ?? `p${index}`}@${host}${after}`,
      ).join("");
    });

  it("redacts what the rule redacts one URL at a time", () => {
    fc.assert(
      fc.property(units, pieces(["[R]", "R@", "x"]), (text, replacement) => {
        expect(redactUrlCredentials(text, contextOf(replacement))).toBe(oneUrlAtATime(text, replacement));
      }),
      { numRuns: 300 },
    );
  });
});
