import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { expect, it, onTestFinished, vi } from "vitest";
import { usableNativeBinary } from "../src/bridge/bridge-launch.js";
import { findPidsHierarchy } from "../src/spawn/run-cgroup.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { refillSpareLauncher } from "../src/spawn/spare-launcher.js";
import { SETTLE } from "./sandbox-support.js";

// A file of its own: the module's one waiting spare is this test's, and no other test's spares
// are children of this process.

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pids of this process's idle spare launchers. */
const idleSpares = (): number[] =>
  execFileSync("ps", ["--ppid", String(process.pid), "-o", "pid=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes("--cgroup-spare"))
    .map((line) => Number.parseInt(line, 10));

it("kills the spare a run took when the run fails before it starts, in its cgroup or not", async () => {
  const launcher = await usableNativeBinary();
  expect(launcher, "the native binary runs here").toBeTruthy();
  refillSpareLauncher(launcher!);
  const [spare] = idleSpares();
  expect(spare, "a spare waits").toBeTypeOf("number");
  onTestFinished(() => {
    if (alive(spare!)) process.kill(spare!, "SIGKILL");
  });
  // A spare taken right after it started may not have joined its cgroup yet (then the cgroup's
  // kill misses it; `paperclip-sandbox doctor` hung on one). Moved out of it here, for certain.
  await vi.waitFor(
    () => expect(readFileSync(`/proc/${spare}/cgroup`, "utf8")).toMatch(/paperclip-sandbox-/),
    SETTLE,
  );
  writeFileSync(path.join(findPidsHierarchy()!.parent, "cgroup.procs"), String(spare));

  const ws = tempDirForTest("paperclip-spare-failed-");
  const bridge = process.env.PAPERCLIP_SANDBOX_BRIDGE;
  process.env.PAPERCLIP_SANDBOX_BRIDGE = "fast";
  onTestFinished(() => {
    if (bridge === undefined) delete process.env.PAPERCLIP_SANDBOX_BRIDGE;
    else process.env.PAPERCLIP_SANDBOX_BRIDGE = bridge;
  });
  // The run takes the spare, then fails building its sandbox (the bridge choice is invalid).
  await expect(
    runChildProcess("spare-failed", "/bin/true", [], {
      cwd: ws,
      env: {},
      timeoutSec: 30,
      graceSec: 1,
      onLog: async () => {},
      localProcessSandbox: { workspaceDir: ws, networkScope: "allowlist", networkAllowlist: ["127.0.0.1:9"] },
    }),
  ).rejects.toMatchObject({ code: "ERR_SANDBOX_BRIDGE_CHOICE_INVALID" });
  // Held for its run, a spare left alive would keep this process alive for good.
  await vi.waitFor(() => expect(alive(spare!)).toBe(false), SETTLE);
});
