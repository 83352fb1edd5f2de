import { describe, expect, it } from "vitest";
import { AlphabetGate } from "./alphabet-gate.js";

const TOKEN = { words: ["ghp_", "AKIA"], caseless: false };
const KEY = { words: ["token"], caseless: true };
const numbered = (unit: (index: number) => string, count: number): string =>
  Array.from({ length: count }, (_, index) => unit(index)).join("");

describe("AlphabetGate", () => {
  it("rules out words whose characters the whole text lacks", () => {
    const gate = new AlphabetGate(
      numbered((index) => `-H 'X-Id: ${index}' `, 5000),
      "[REDACTED]",
    );
    expect(gate.mayHold(TOKEN, true)).toBe(false);
    expect(gate.mayHold(KEY, true)).toBe(false);
  });

  it("allows a word the text may spell, in any case for a caseless word", () => {
    expect(new AlphabetGate("id=1 TOKEN=2", "[REDACTED]").mayHold(KEY, true)).toBe(true);
    expect(
      new AlphabetGate("id=1 TOKEN=2", "[REDACTED]").mayHold({ words: ["token"], caseless: false }, true),
    ).toBe(false);
  });

  it("allows every word once a character outside its sample turns up later", () => {
    // The sample (the text's start) lacks `g`, `h`, `p` and `_`; the end holds them.
    const text = `${numbered((index) => `id ${index} `, 2000)}ghp_`;
    expect(new AlphabetGate(text, "[REDACTED]").mayHold(TOKEN, true)).toBe(true);
  });

  it("checks a text that repeats its start past the repetition", () => {
    expect(new AlphabetGate("-p ".repeat(100_000), "[REDACTED]").mayHold(TOKEN, true)).toBe(false);
    expect(new AlphabetGate(`${"-p ".repeat(100_000)}ghp_`, "[REDACTED]").mayHold(TOKEN, true)).toBe(true);
    expect(new AlphabetGate(`${"-p ".repeat(100_000)}x`, "[REDACTED]").mayHold(TOKEN, true)).toBe(true);
  });

  it("allows every word in a text holding a character past ASCII", () => {
    expect(new AlphabetGate("id é 1", "[REDACTED]").mayHold(TOKEN, true)).toBe(true);
    const late = `${numbered((index) => `id ${index} `, 2000)}é`;
    expect(new AlphabetGate(late, "[REDACTED]").mayHold(TOKEN, true)).toBe(true);
  });

  it("confirms the alphabet only when asked, then answers every rule from it", () => {
    const gate = new AlphabetGate(
      numbered((index) => `-H 'X-Id: ${index}' `, 5000),
      "[REDACTED]",
    );
    expect(gate.mayHold(KEY, false)).toBe(true);
    expect(gate.mayHold(TOKEN, true)).toBe(false);
    expect(gate.mayHold(KEY, false)).toBe(false);
  });

  it("adds the replacement's characters after a rule replaced something", () => {
    const gate = new AlphabetGate("x 1 2 3", "AKIA");
    expect(gate.mayHold(TOKEN, true)).toBe(false);
    gate.replaced();
    expect(gate.mayHold(TOKEN, true)).toBe(true);
  });
});
