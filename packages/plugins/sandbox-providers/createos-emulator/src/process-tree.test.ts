import { describe, expect, it } from "vitest";
import { parseProcStat } from "./process-tree.js";

describe("parseProcStat", () => {
  it("reads pid, ppid, group and zombie state after the command name", () => {
    expect(parseProcStat("42 (bash) S 7 42 42 0 -1")).toEqual({
      pid: 42,
      ppid: 7,
      pgid: 42,
      state: "S",
      zombie: false,
    });
    expect(parseProcStat("43 (a) (b) c) Z 1 42 42 0")).toEqual({
      pid: 43,
      ppid: 1,
      pgid: 42,
      state: "Z",
      zombie: true,
    });
  });

  it("returns undefined for malformed text", () => {
    expect(parseProcStat("garbage")).toBeUndefined();
    expect(parseProcStat("12 (x)")).toBeUndefined();
  });
});
