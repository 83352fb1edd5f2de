import { describe, expect, it } from "vitest";
import { parseProcStat } from "./process-tree.js";

// Fields after the command name, as /proc/<pid>/stat has them: state, ppid, pgrp, … starttime (the 20th).
const TAIL = "0 -1 4194304 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 200";

describe("parseProcStat", () => {
  it("reads pid, ppid, group, zombie state and start time after the command name", () => {
    expect(parseProcStat(`42 (bash) S 7 42 42 ${TAIL}`)).toEqual({
      pid: 42,
      ppid: 7,
      pgid: 42,
      state: "S",
      zombie: false,
      startTime: "987654",
    });
    expect(parseProcStat(`43 (a) (b) c) Z 1 42 42 ${TAIL}`)).toEqual({
      pid: 43,
      ppid: 1,
      pgid: 42,
      state: "Z",
      zombie: true,
      startTime: "987654",
    });
  });

  it("returns undefined for malformed text", () => {
    expect(parseProcStat("garbage")).toBeUndefined();
    expect(parseProcStat("12 (x)")).toBeUndefined();
    expect(parseProcStat("42 (bash) S 7 42 42 0 -1")).toBeUndefined();
  });
});
