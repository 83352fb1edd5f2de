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
    expect(gate.mayHold(TOKEN)).toBe(false);
    expect(gate.mayHold(KEY)).toBe(false);
  });

  it("allows a word the text may spell, in any case for a caseless word", () => {
    expect(new AlphabetGate("id=1 TOKEN=2", "[REDACTED]").mayHold(KEY)).toBe(true);
    expect(
      new AlphabetGate("id=1 TOKEN=2", "[REDACTED]").mayHold({ words: ["token"], caseless: false }),
    ).toBe(false);
  });

  it("finds past its sampled start the characters a word needs", () => {
    // The sample (the text's start) lacks `g`, `h`, `p` and `_`; the end holds them.
    const text = `${numbered((index) => `id ${index} `, 2000)}ghp_`;
    expect(new AlphabetGate(text, "[REDACTED]").mayHold(TOKEN)).toBe(true);
    // `T`, `O`, `K`, `E` and `N` at the end, each far from the others: the caseless word may be held.
    const spread = `${numbered((index) => `id ${index} `, 2000)}T${"1 ".repeat(900)}OKEN`;
    expect(new AlphabetGate(spread, "[REDACTED]").mayHold(KEY)).toBe(true);
  });

  it("looks past a repetition of its start only", () => {
    expect(new AlphabetGate("-p ".repeat(100_000), "[REDACTED]").mayHold(TOKEN)).toBe(false);
    expect(new AlphabetGate(`${"-p ".repeat(100_000)}ghp_`, "[REDACTED]").mayHold(TOKEN)).toBe(true);
    expect(new AlphabetGate(`${"-p ".repeat(100_000)}x`, "[REDACTED]").mayHold(TOKEN)).toBe(false);
  });

  it("allows every word in a text whose start holds a character past ASCII", () => {
    expect(new AlphabetGate("id é 1", "[REDACTED]").mayHold(TOKEN)).toBe(true);
  });

  it("adds the replacement's characters after a rule replaced something", () => {
    const gate = new AlphabetGate("x 1 2 3", "AKIA");
    expect(gate.mayHold(TOKEN)).toBe(false);
    gate.replaced();
    expect(gate.mayHold(TOKEN)).toBe(true);
  });
});
