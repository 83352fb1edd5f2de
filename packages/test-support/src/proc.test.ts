import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { childForTest } from "./children.js";
import { isAlive, processesWith, readCommandLine, readProcStat, readProcTable } from "./proc.js";

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

describe("processesWith", () => {
  it("finds a child by a marker in its arguments, and not once it has exited", async () => {
    const marker = `proc-test-marker-${process.pid}`;
    const child = childForTest(() =>
      spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)", marker], { stdio: "ignore" }),
    );
    await once(child, "spawn");
    expect(processesWith(marker)).toEqual([child.pid]);
    expect(readCommandLine(child.pid!)?.split("\0")).toContain(marker);
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(processesWith(marker)).toEqual([]);
    expect(readCommandLine(child.pid!)).toBeUndefined();
  });
});
