import { describe, expect, it } from "vitest";
import { DEFAULT_FAST_CHECK_SEED, fastCheckSeed } from "./fast-check-seed.js";

describe("fastCheckSeed", () => {
  it("is the fixed default when FC_SEED is unset or empty", () => {
    expect(fastCheckSeed({})).toBe(DEFAULT_FAST_CHECK_SEED);
    expect(fastCheckSeed({ FC_SEED: "" })).toBe(DEFAULT_FAST_CHECK_SEED);
  });

  it("is the integer FC_SEED names, and none for random", () => {
    expect(fastCheckSeed({ FC_SEED: "42" })).toBe(42);
    expect(fastCheckSeed({ FC_SEED: "-7" })).toBe(-7);
    expect(fastCheckSeed({ FC_SEED: "random" })).toBeUndefined();
  });

  it.each(["1.5", "seed", " ", "0x10", "1e3", "4294967296", "-2147483649"])("refuses FC_SEED=%s", (value) => {
    expect(() => fastCheckSeed({ FC_SEED: value })).toThrow(/FC_SEED must be an integer that fits 32 bits/);
  });
});
