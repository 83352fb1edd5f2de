import { describe, expect, it } from "vitest";
import { splitForLiveLog } from "./live-log-chunks.js";

describe("splitForLiveLog", () => {
  it("keeps short text whole and drops nothing", () => {
    expect(splitForLiveLog("abc", 5)).toEqual(["abc"]);
    expect(splitForLiveLog("", 5)).toEqual([]);
  });

  it("cuts long text into bounded pieces that join back exactly", () => {
    const text = "0123456789".repeat(7);
    const pieces = splitForLiveLog(text, 16);
    expect(pieces.every((piece) => piece.length <= 16 && piece.length > 0)).toBe(true);
    expect(pieces.join("")).toBe(text);
  });

  it("never cuts a surrogate pair", () => {
    const pieces = splitForLiveLog("ab🙂cd🙂", 3);
    expect(pieces).toEqual(["ab", "🙂c", "d🙂"]);
  });
});
