import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { WATCHDOG_SCRIPT } from "../src/harness/group-watchdog.js";
import { readProcessStartTime } from "../src/harness/process-identity.js";
import { tracked } from "./helpers/tracked-children.js";
import { isAlive } from "./local-controller.js";

/** A detached process (its own group) standing in for a harness. */
function startGroup(): number {
  const child = tracked(spawn("sleep", ["30"], { detached: true, stdio: "ignore" }));
  child.unref();
  return child.pid as number;
}

/** Runs the watchdog script with stdin already closed, as when its daemon has died; resolves when it is done. */
function fireWatchdog(pid: number, startTime: string): Promise<void> {
  return new Promise((resolve) => {
    const watchdog = tracked(
      spawn("/bin/sh", ["-c", WATCHDOG_SCRIPT, "watchdog", String(pid), startTime], {
        stdio: ["ignore", "ignore", "ignore"],
      }),
    );
    watchdog.on("exit", () => resolve());
  });
}

// Real processes on a busy 2-core CI machine: far more than vitest\'s 5 s default.
describe("the harness group watchdog", { timeout: 60_000 }, () => {
  it("stops the group it was given, and leaves alone a group whose leader is another process", async () => {
    const ours = startGroup();
    const reused = startGroup();
    const ourStart = readProcessStartTime(ours) as string;
    await Promise.all([fireWatchdog(ours, ourStart), fireWatchdog(reused, `${ourStart}0`)]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isAlive(ours)).toBe(false);
    expect(isAlive(reused)).toBe(true);
    process.kill(-reused, "SIGKILL");
  });
});
