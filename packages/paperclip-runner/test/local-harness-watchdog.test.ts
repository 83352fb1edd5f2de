import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { buildPlantedLoader, childForTest, tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { GroupWatchdog, WATCHDOG_SCRIPT } from "../src/harness/group-watchdog.js";
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

  it("runs on the host without the daemon's loader variables (a preload meant for the harness)", async () => {
    // A daemon handing LD_PRELOAD to its harness (PAPERCLIP_RUNNER_HARNESS_ENV) holds it in
    // its own env; the watchdog shell, unsandboxed, must not load the library.
    const dir = tempDirForTest("paperclip-watchdog-preload-");
    const marker = path.join(dir, "loaded-by");
    const planted = buildPlantedLoader(path.join(dir, "planted.so"), marker);
    const harness = startGroup();
    const startTime = readProcessStartTime(harness.pid) as string;
    const saved = process.env.LD_PRELOAD;
    let watchdog: GroupWatchdog;
    try {
      process.env.LD_PRELOAD = planted;
      watchdog = new GroupWatchdog({ pid: harness.pid, startTime });
    } finally {
      if (saved === undefined) delete process.env.LD_PRELOAD;
      else process.env.LD_PRELOAD = saved;
    }
    try {
      // The watchdog shell, once it blocks reading its pipe (its loader and constructors are done).
      const shell = await waitForWatchdogShell(harness.pid);
      expect(readFileSync(`/proc/${shell}/maps`, "utf8")).not.toContain(planted);
      expect(readFileSync(`/proc/${shell}/environ`, "utf8")).not.toContain("LD_PRELOAD");
    } finally {
      watchdog.dismiss();
      process.kill(-harness.pid, "SIGKILL");
      await harness.ended;
    }
    expect(existsSync(marker), "the watchdog shell loaded the planted preload").toBe(false);
  });
});

/** The pid of the watchdog shell given `leader`, once it sleeps (blocked reading its pipe). */
async function waitForWatchdogShell(leader: number): Promise<number> {
  for (;;) {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
        const at = argv.indexOf("paperclip-harness-watchdog");
        if (at < 0 || argv[at + 1] !== String(leader)) continue;
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        if (/\) S /.test(stat) && readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "sh")
          return Number(entry);
      } catch {
        // Gone, or not readable: not ours.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
