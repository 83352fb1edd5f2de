import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { isAlive, parseProcStat, readProcStat, readProcTable } from "./proc.js";

describe("parseProcStat", () => {
  it("reads the fields after a command name with spaces and parentheses", () => {
    const fields = ["S", "1", "42", ...Array.from({ length: 16 }, () => "0"), "98765", "0"];
    expect(parseProcStat(`123 (a) b (c)) ${fields.join(" ")}`)).toEqual({
      pid: 123,
      ppid: 1,
      pgid: 42,
      state: "S",
      startTime: "98765",
    });
  });

  it("refuses text that is not a stat line", () => {
    expect(parseProcStat("")).toBeUndefined();
    expect(parseProcStat("12 (short) S 1")).toBeUndefined();
  });
});

describe("readProcStat", () => {
  it("sees this process and its parent", () => {
    const own = readProcStat(process.pid);
    expect(own?.ppid).toBe(process.ppid);
    expect(readProcTable().some((entry) => entry.pid === process.pid)).toBe(true);
  });

  it("tells a live child from a reaped one", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    const pid = child.pid!;
    expect(isAlive(pid)).toBe(true);
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(isAlive(pid)).toBe(false);
  });
});
