import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, describe, expect, it } from "vitest";
import { childForTest, childrenForFile, stopChild } from "./children.js";
import { isAlive } from "./proc.js";

const IDLE = ["-e", "setInterval(() => {}, 1 << 30)"];
const idle = () => spawn(process.execPath, IDLE, { stdio: "ignore" });

describe("stopChild", () => {
  it("ends a child that ignores SIGTERM with SIGKILL once its patience runs out", async () => {
    const stubborn = childForTest(() =>
      spawn(
        process.execPath,
        ["-e", 'process.on("SIGTERM", () => {}); process.send?.(1); setInterval(() => {}, 1 << 30)'],
        {
          stdio: ["ignore", "ignore", "ignore", "ipc"],
        },
      ),
    );
    await once(stubborn, "message");
    await stopChild(stubborn, 100);
    expect(stubborn.signalCode).toBe("SIGKILL");
  });
});

describe("childForTest", () => {
  let pid = 0;

  it("starts the child", async () => {
    const child = childForTest(idle);
    await once(child, "spawn");
    pid = child.pid!;
    expect(isAlive(pid)).toBe(true);
  });

  it("stopped it when that test finished", () => {
    expect(isAlive(pid)).toBe(false);
  });
});

describe.concurrent("childrenForFile", () => {
  const started: ChildProcess[] = [];
  const forFile = childrenForFile();
  afterAll(() => {
    // Registered after childrenForFile's own afterAll, so it runs first (vitest runs afterAll hooks in reverse).
    expect(started.map((child) => isAlive(child.pid!))).toEqual([true, true]);
  });

  for (const name of ["one", "two"]) {
    it(`keeps ${name}'s child past the end of its test`, async () => {
      const child = forFile(idle);
      started.push(child);
      await once(child, "spawn");
    });
  }
});
