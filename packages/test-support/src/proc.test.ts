import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { isAlive, readProcStat, readProcTable } from "./proc.js";

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
