import { describe, expect, it } from "vitest";
import { redactSecrets } from "../redact-secrets.js";
import { holdsLetterRun, KeysInRun, readValueEnd, sameKeyAfter, unitPattern } from "./key-runs.js";
import { MAX_PLAIN_VALUE } from "./plain-values.js";

describe("KeysInRun", () => {
  // `&key=1&key=22&key=333 x`: the first key at 1, its value at 5.
  const text = "&key=1&key=22&key=333 x";

  it("finds each next key of the run right after the value before it", () => {
    const keys = new KeysInRun(text, 1, 5, false, true);
    expect(keys.next(6)).toBe(7);
    expect(keys.gap).toBe("&key=");
    expect(keys.next(13)).toBe(14);
  });

  it("finds none after other characters, another key, or another character before the key", () => {
    expect(new KeysInRun(text, 1, 5, false, true).next(21)).toBe(-1);
    expect(new KeysInRun("&key=1&kex=2", 1, 5, false, true).next(6)).toBe(-1);
    expect(new KeysInRun("&key=1;key=2", 1, 5, false, true).next(6)).toBe(-1);
    // Past a few characters that are no key's only.
    expect(new KeysInRun("&key=1 ,;  ,;  &key=2", 1, 5, false, true).next(6)).toBe(-1);
  });

  it("matches the gap and the value natively once enough keys followed the same gap", () => {
    const run = Array.from({ length: 12 }, (_, index) => `&key=${index}`).join("");
    const keys = new KeysInRun(run, 1, 5, false, true);
    let valueEnd = 6;
    for (let index = 1; index < 9; index += 1) {
      expect(keys.nextValueEnd(valueEnd)).toBe(-1);
      const start = keys.next(valueEnd) + "key=".length;
      valueEnd = readValueEnd(run, start, false, true);
      keys.readByHand();
    }
    expect(keys.nextValueEnd(valueEnd)).toBe(run.indexOf("&key=10"));
  });
});

describe("sameKeyAfter", () => {
  it("finds the same key, separator and character before it right after a value", () => {
    expect(sameKeyAfter("\ntoken: v1\ntoken: v2", 1, 8, 10)).toBe(11);
    expect(sameKeyAfter('{"token":"v1","token":"v2"}', 2, 10, 12)).toBe(15);
  });

  it("finds none for another key, separator or character before it, or past a few characters", () => {
    expect(sameKeyAfter("\ntoken: v1\ntoken=v2", 1, 8, 10)).toBe(-1);
    expect(sameKeyAfter("\ntoken: v1\ntokens: v2", 1, 8, 10)).toBe(-1);
    expect(sameKeyAfter("\ntoken: v1 token: v2", 1, 8, 10)).toBe(-1);
    expect(sameKeyAfter("\ntoken: v1 ,;,;,;,;\ntoken: v2", 1, 8, 10)).toBe(-1);
    expect(sameKeyAfter("\ntoken: v1", 1, 8, 10)).toBe(-1);
  });
});

describe("holdsLetterRun", () => {
  it("is true for three ASCII letters in a row, where a key word could start", () => {
    expect(holdsLetterRun("x=abc1", 2, 6)).toBe(true);
    expect(holdsLetterRun("x=1ab2cd3", 2, 9)).toBe(false);
    expect(holdsLetterRun("abc", 1, 3)).toBe(false);
    expect(holdsLetterRun("\u00e9\u00e9\u00e9", 0, 3)).toBe(false);
  });
});

describe("unitPattern", () => {
  // A gap, then a value of each shape around each code unit: the pattern ends where the run's
  // reader by hand does, or fails where it does.
  const samples = (code: number): string[] => {
    const char = String.fromCharCode(code);
    return [char, `${char}v`, `v${char}`, `v${char}1 `, `v1${char}`, `${char}${char} x`, `vv${char}`];
  };
  const gaps = ["&key=", "\ntoken: ", '","token":"'];

  it("reads every value as the run's reader does", () => {
    for (const [index, gap] of gaps.entries()) {
      const quoted = index === 2;
      for (const inQuery of [false, true]) {
        const pattern = unitPattern(gap, quoted, inQuery);
        for (let code = 0; code < 0x3000; code += code < 0x300 ? 1 : 97) {
          for (const value of samples(code)) {
            for (const text of [`${gap}${value}`, `${gap}${value}" x`]) {
              pattern.lastIndex = 0;
              const end = pattern.test(text) ? pattern.lastIndex : -1;
              expect(end, JSON.stringify(text)).toBe(readValueEnd(text, gap.length, quoted, inQuery));
            }
          }
        }
      }
    }
  });

  it("reads a value up to the fast path's bound", () => {
    const pattern = unitPattern("&key=", false, true);
    for (const length of [MAX_PLAIN_VALUE - 1, MAX_PLAIN_VALUE, MAX_PLAIN_VALUE + 1]) {
      const text = `&key=${"7".repeat(length)}&`;
      pattern.lastIndex = 0;
      const end = pattern.test(text) ? pattern.lastIndex : -1;
      expect(end).toBe(readValueEnd(text, 5, false, true));
    }
  });
});

describe("a run of the same key", () => {
  it("judges each value as the key pass does one by one", () => {
    const query = Array.from({ length: 20 }, (_, index) => `key=${index * 9999}`).join("&");
    expect(redactSecrets(`?${query}`)).toBe(
      `?${Array.from({ length: 20 }, (_, index) => `key=${index * 9999 >= 100000 ? "[REDACTED]" : index * 9999}`).join("&")}`,
    );
  });

  it("leaves a kept value's own keys to the key pass", () => {
    // A count of tokens is kept, and so is a URL, but not the token in its query.
    const lines = Array.from({ length: 12 }, (_, index) => `tokens: ${index}`);
    lines.push("tokens: http://h/?token=abc123def", "tokens: 99");
    expect(redactSecrets(lines.join("\n"))).toBe(
      [...lines.slice(0, 12), "tokens: http://h/?token=[REDACTED]", "tokens: 99"].join("\n"),
    );
  });

  it("leaves a repeated key and value to the repeat skipper, as judged one by one", () => {
    expect(redactSecrets('"token":"'.repeat(50))).toBe('"token":"'.repeat(50));
    expect(redactSecrets("token: abc123\n".repeat(50))).toBe("token: [REDACTED]\n".repeat(50));
  });

  it("redacts the values of a long run, and what breaks it", () => {
    const lines = Array.from({ length: 30 }, (_, index) => `token: v${index}`);
    lines.splice(20, 0, "token: v1.", "token: pending");
    const expected = lines.map((line) =>
      line === "token: v1." ? "token: [REDACTED]." : line === "token: pending" ? line : "token: [REDACTED]",
    );
    expect(redactSecrets(lines.join("\n"))).toBe(expected.join("\n"));
  });
});
