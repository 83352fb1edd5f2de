import { spawn } from "node:child_process";
import { once } from "node:events";
import { childForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { WATCHDOG_SCRIPT } from "../src/harness/group-watchdog.js";
import { readProcessStartTime } from "../src/harness/process-identity.js";

/** A detached process (its own group) standing in for a harness; resolves with the signal that ended it. */
function startGroup(): { pid: number; ended: Promise<NodeJS.Signals | null> } {
  const child = childForTest(() => spawn("sleep", ["30"], { detached: true, stdio: "ignore" }));
  const ended = once(child, "exit").then(([, signal]) => signal as NodeJS.Signals | null);
  return { pid: child.pid as number, ended };
}

/** Runs the watchdog script with stdin already closed, as when its daemon has died; resolves when it is done. */
function fireWatchdog(pid: number, startTime: string): Promise<void> {
  return new Promise((resolve) => {
    const watchdog = childForTest(() =>
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
    const ourStart = readProcessStartTime(ours.pid) as string;
    await Promise.all([fireWatchdog(ours.pid, ourStart), fireWatchdog(reused.pid, `${ourStart}0`)]);
    expect(await ours.ended).toBe("SIGTERM");
    // The watchdogs are done. A SIGTERM sent to the other group would already have fixed its
    // exit status (a fatal signal decides it when sent), so the SIGKILL sent now is what ends it
    // only if no watchdog signalled it, however late the signal would be delivered.
    process.kill(-reused.pid, "SIGKILL");
    expect(await reused.ended).toBe("SIGKILL");
  });
});
