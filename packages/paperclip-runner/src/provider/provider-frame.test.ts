import { describe, expect, it } from "vitest";
import { providerFrame } from "./provider-frame.js";

const parsed = (message: Record<string, unknown>) => JSON.parse(providerFrame(message)) as unknown;

describe("providerFrame", () => {
  it("is the message's JSON on one line when every string is well formed", () => {
    const message = { id: 1, method: "turn/start", params: { text: "a 🧪 b \\ud800 c \n" } };
    expect(providerFrame(message)).toBe(`${JSON.stringify(message)}\n`);
  });

  it("replaces lone high and low surrogates with U+FFFD, in values and keys", () => {
    const message = {
      params: { text: "lone \ud800 high, \udc00 low, \ud83d\ude00 pair", "k\udfff": "\ud83d" },
    };
    expect(parsed(message)).toEqual({
      params: { text: "lone \ufffd high, \ufffd low, 😀 pair", "k\ufffd": "\ufffd" },
    });
    expect(providerFrame(message)).not.toMatch(/\\ud[89a-f]/);
  });

  it("keeps an escaped backslash followed by the letters of a surrogate escape", () => {
    const message = { text: "\\ud800 is text, \\\ud800 is a backslash and a surrogate" };
    expect(parsed(message)).toEqual({ text: "\\ud800 is text, \\\ufffd is a backslash and a surrogate" });
  });

  it("replaces two lone surrogates in a row, and one at either end of a string", () => {
    expect(parsed({ text: "\udc00\ud800" })).toEqual({ text: "\ufffd\ufffd" });
    expect(parsed({ a: "\ud800", b: "x\udbff" })).toEqual({ a: "\ufffd", b: "x\ufffd" });
  });

  it("keeps a long run of backslashes and what follows it", () => {
    const text = `${"\\".repeat(100_001)}ud800 \ud800`;
    expect(parsed({ text })).toEqual({ text: `${"\\".repeat(100_001)}ud800 \ufffd` });
  });
});
