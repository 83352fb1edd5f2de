import { readdirSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { usableNativeBinary } from "../src/bridge/bridge-launch.js";
import { findPidsHierarchy } from "../src/spawn/run-cgroup.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { launchSpare, refillSpareLauncher, takeSpareLauncher } from "../src/spawn/spare-launcher.js";
import { builtEntry, exec, SETTLE } from "./sandbox-support.js";

/** What the spare's run prints: its cgroups, directory, environment, stdin and which of fds 3-5 it holds. */
const REPORT = [
  "cat /proc/self/cgroup",
  "echo cwd=$(pwd)",
  'echo "env=$MARK"',
  'echo "stdin=$(cat)"',
  "for fd in 3 4 5; do [ -e /proc/$$/fd/$fd ] && echo open=$fd; done",
  "true",
].join("; ");

describe("the spare cgroup launcher", () => {
  it("joins its cgroup before it has a run, then becomes the requested command there", async () => {
    const launcher = await usableNativeBinary();
    expect(launcher, "the native binary runs here").toBeTruthy();
    refillSpareLauncher(launcher!);
    const spare = takeSpareLauncher(launcher!, 64);
    expect(spare, "root can create a pids cgroup here").toBeTruthy();
    onTestFinished(() => spare!.cgroup.remove());
    const cgroupDir = spare!.cgroup.procsFile.replace(/\/cgroup\.procs$/, "");
    // It is in its cgroup while it still waits for its run.
    await vi.waitFor(
      () => expect(readFileSync(spare!.cgroup.procsFile, "utf8")).toBe(`${spare!.child.pid}\n`),
      SETTLE,
    );
    expect(readFileSync(`${cgroupDir}/pids.max`, "utf8").trim()).toBe("64");

    const cwd = tempDirForTest("paperclip-spare-");
    const child = launchSpare(spare!, {
      command: "/bin/sh",
      args: ["-c", REPORT],
      env: { MARK: "from the request", PATH: "/usr/bin:/bin" },
      cwd,
      stdin: false,
      status: true,
      seccomp: false,
    });
    let stdout = "";
    child.stdout?.on("data", (chunk) => (stdout += chunk));
    child.stdio[3]?.on("data", () => {});
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(stdout).toContain(`pids:/${cgroupDir.split("/pids/")[1]}`);
    expect(stdout).toContain(`cwd=${cwd}\n`);
    expect(stdout).toContain("env=from the request\n");
    // No stdin asked: /dev/null, not the spare's pipe; only the status descriptor stays.
    expect(stdout).toContain("stdin=\n");
    expect(stdout).toContain("open=3\n");
    expect(stdout).not.toMatch(/open=[45]/);
  });

  it("serves the spawn helper's sandboxed runs one after another, each in a cgroup of its own", async () => {
    const ws = tempDirForTest("paperclip-spare-runs-");
    const cgroups: string[] = [];
    for (let run = 0; run < 3; run += 1) {
      const result = await runChildProcess("spare", "/bin/sh", ["-c", "grep pids /proc/self/cgroup; cat"], {
        cwd: ws,
        env: {},
        timeoutSec: 30,
        graceSec: 1,
        onLog: async () => {},
        stdin: `input ${run}`,
        localProcessSandbox: { workspaceDir: ws, networkScope: "deny" },
      });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toContain(`input ${run}`);
      cgroups.push(result.stdout.split("\n")[0]!);
    }
    expect(cgroups.every((line) => /pids:.*paperclip-sandbox-\d+-[0-9a-f]+-\d+$/.test(line))).toBe(true);
    expect(new Set(cgroups).size).toBe(3);
  });

  it("keeps two copies of the package in one process (its ESM and CJS builds, or two versions) apart", async () => {
    // Each import after a reset is a fresh copy of the module graph, with its own spare and names.
    vi.resetModules();
    const first = await import("../src/spawn/run-child-process.js");
    vi.resetModules();
    const second = await import("../src/spawn/run-child-process.js");
    expect(first.runChildProcess).not.toBe(second.runChildProcess);
    const ws = tempDirForTest("paperclip-spare-copies-");
    const cgroups: string[] = [];
    for (let round = 0; round < 4; round += 1) {
      for (const copy of [first, second]) {
        const result = await copy.runChildProcess(
          "copies",
          "/bin/sh",
          ["-c", "grep pids /proc/self/cgroup"],
          {
            cwd: ws,
            env: {},
            timeoutSec: 30,
            graceSec: 1,
            onLog: async () => {},
            localProcessSandbox: { workspaceDir: ws, networkScope: "deny" },
          },
        );
        expect(result.exitCode, result.stderr).toBe(0);
        cgroups.push(result.stdout.trim());
      }
    }
    // Named by pid and counter alone, the second copy's cgroup collided with the first's spare,
    // so its run went without a pids limit (and a cleanup could kill the other copy's run).
    expect(cgroups.filter((line) => !/pids:.*paperclip-sandbox-\d+-(?:[0-9a-f]+-)?\d+$/.test(line))).toEqual(
      [],
    );
    expect(new Set(cgroups).size).toBe(cgroups.length);
  });

  it("leaves no process and no cgroup behind once its host process has ended", async () => {
    const ws = tempDirForTest("paperclip-spare-host-");
    // A host that runs one sandboxed program (which starts the next spare) and exits at once.
    const host = `
      const { runChildProcess } = await import(${JSON.stringify(pathToFileURL(builtEntry).href)});
      const sandbox = { workspaceDir: ${JSON.stringify(ws)}, networkScope: "deny" };
      const options = { cwd: ${JSON.stringify(ws)}, env: {}, timeoutSec: 30, graceSec: 1, onLog: async () => {} };
      await runChildProcess("spare-host", "/bin/true", [], { ...options, localProcessSandbox: sandbox });
      await new Promise((resolve) => setTimeout(resolve, 200));
      console.log(process.pid);`;
    const result = await exec(process.execPath, ["--input-type=module", "-e", host]);
    expect(result.code, result.stderr).toBe(0);
    const hostPid = result.stdout.trim();
    const parent = findPidsHierarchy()!.parent;
    const left = () => readdirSync(parent).filter((name) => name.startsWith(`paperclip-sandbox-${hostPid}-`));
    await vi.waitFor(() => expect(left()).toEqual([]), SETTLE);
    const spares = await exec("pgrep", ["-f", `paperclip-sandbox-${hostPid}-`]);
    expect(spares.stdout).toBe("");
  });
});
