import { describe, expect, it } from "vitest";
import { mayStartScheme, SCHEME_NAMES } from "./assignment-chars.js";

describe("mayStartScheme", () => {
  it("admits exactly the first letters of SCHEME_NAMES, in either case, of all code units", () => {
    const firsts = SCHEME_NAMES.flatMap((name) => [name.charCodeAt(0) | 0x20, name.charCodeAt(0) & ~0x20]);
    const admitted = Array.from({ length: 0x10000 }, (_, code) => code).filter(mayStartScheme);
    expect(admitted).toEqual([...new Set(firsts)].sort((a, b) => a - b));
  });
});
