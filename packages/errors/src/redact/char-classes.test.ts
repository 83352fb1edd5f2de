import { describe, expect, it } from "vitest";
import { isKeyChar, KEY_CHARS } from "./char-classes.js";

describe("KEY_CHARS", () => {
  it("tells isKeyChar's answer for every code unit, by a load", () => {
    const differing: number[] = [];
    for (let code = 0; code < 0x10000; code += 1) {
      if ((KEY_CHARS[code] === 1) !== isKeyChar(code)) differing.push(code);
    }
    expect(differing).toEqual([]);
  });
});
