import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { parseProcStat, readProcStat, readProcTable } from "./proc-stat.js";

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

  it("reads the fields after a command name with spaces and parentheses", () => {
    const fields = ["S", "1", "42", ...Array.from({ length: 16 }, () => "0"), "98765", "0"];
    expect(parseProcStat(`123 (a) b (c)) ${fields.join(" ")}`)).toMatchObject({
      pid: 123,
      ppid: 1,
      pgid: 42,
      startTime: "98765",
    });
  });

  it("returns undefined for text that is not a stat line", () => {
    expect(parseProcStat("")).toBeUndefined();
    expect(parseProcStat("garbage")).toBeUndefined();
    expect(parseProcStat("12 (x)")).toBeUndefined();
    expect(parseProcStat("42 (bash) S 7 42 42 0 -1")).toBeUndefined();
  });
});

describe("readProcStat", () => {
  it("sees this process and its parent, also in the table", () => {
    expect(readProcStat(process.pid)?.ppid).toBe(process.ppid);
    expect(readProcTable()?.some((entry) => entry.pid === process.pid)).toBe(true);
  });

  it("keeps a child's start time while it lives and returns undefined once it is reaped", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    const pid = child.pid as number;
    try {
      const first = readProcStat(pid);
      expect(first?.zombie).toBe(false);
      expect(readProcStat(pid)?.startTime).toBe(first?.startTime);
    } finally {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
    expect(readProcStat(pid)).toBeUndefined();
  });
});
