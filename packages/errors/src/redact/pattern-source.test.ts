import { describe, expect, it } from "vitest";
import { escapeForPattern, trieOf } from "./pattern-source.js";

describe("escapeForPattern", () => {
  it("returns a word without special characters as it is", () => {
    expect(escapeForPattern("ghp_")).toBe("ghp_");
    expect(escapeForPattern("")).toBe("");
  });

  it("escapes every special character, wherever it stands", () => {
    const specials = [".", "*", "+", "?", "^", "$", "{", "}", "(", ")", "|", "[", "]", "\\", "/"];
    for (const char of specials) {
      expect(escapeForPattern(char)).toBe(`\\${char}`);
      expect(escapeForPattern(`a${char}b${char}`)).toBe(`a\\${char}b\\${char}`);
    }
    const all = specials.join("");
    expect(new RegExp(`^${escapeForPattern(all)}$`).test(all)).toBe(true);
  });
});

describe("trieOf", () => {
  it("groups words by their first characters, in the order they come", () => {
    expect(trieOf(["sk-", "sk_live_", "ghp_", "gho_", "AKIA"])).toBe(
      "s(?:k(?:-|_live_))|g(?:h(?:p_|o_))|AKIA",
    );
  });

  it("matches the longest of words that start one another, and only it", () => {
    const source = trieOf(["pass", "password", "passwd"]);
    expect(source).toBe("p(?:a(?:s(?:s(?:(?:w(?:ord|d)|(?!w(?:ord|d)))))))");
    expect(new RegExp(`^(?:${source})`).exec("password")?.[0]).toBe("password");
    expect(new RegExp(`^(?:${source})`).exec("pass=1")?.[0]).toBe("pass");
  });

  it("escapes what the words hold", () => {
    expect(trieOf(["sat.", "sa.b"])).toBe("s(?:a(?:t\\.|\\.b))");
  });
});
