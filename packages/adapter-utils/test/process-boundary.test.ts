import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { usableNativeBinary } from "../src/bridge/bridge-launch.js";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { createRunCgroup } from "../src/spawn/run-cgroup.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { SandboxInit } from "../src/spawn/sandbox-pid.js";
import { buildAttacks, echoServer, hostSink, spawnTarget } from "./attack-support.js";
import { builtEntry, cleanupAll, exec, onCleanup, packageDir, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/** Longer than the daemon of `outlive-init` waits (2 s) before it writes its file. */
const OUTLIVE_WAIT_MS = 3500;

/** The `syscalls` attack's lines, `<name> <errno name or ok>`, as an object. */
function outcomes(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .trim()
      .split("\n")
      .map((line) => line.split(" ")),
  );
}

function runAttack(
  binary: string,
  args: string[],
  sandbox: Omit<LocalProcessSandboxOptions, "workspaceDir">,
  workspaceDir: string,
) {
  return runChildProcess("process-boundary", binary, args, {
    cwd: workspaceDir,
    env: {},
    timeoutSec: 30,
    graceSec: 1,
    onLog: async () => {},
    localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir, ...sandbox },
  });
}

describe("the process boundary (class 1: inherited descriptors)", () => {
  it("no program reaches a host socket its runner inherited, in any scope or with either bridge", async () => {
    const sink = await hostSink();
    const allowed = await echoServer();
    const ws = await scratchDir();
    const held = connect(sink.port, "127.0.0.1");
    await new Promise<void>((resolve) => held.once("connect", () => resolve()));
    onCleanup(async () => void held.destroy());
    // The runner gets the connected socket at fd 20, as from a supervisor: no close-on-exec.
    const stdio = ["ignore", "pipe", "pipe", ...Array(17).fill("ignore"), held] as const;
    const runner = spawn(
      process.execPath,
      [path.join(packageDir, "test", "fixtures", "inherited-fd-runner.mjs"), builtEntry, ws, String(allowed)],
      { stdio: stdio as unknown as ("ignore" | "pipe")[] },
    );
    let stdout = "";
    let stderr = "";
    runner.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    runner.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await new Promise((resolve) => runner.once("exit", resolve)), stderr).toBe(0);
    const results = JSON.parse(stdout) as Record<string, { wrote: string }>;
    expect(Object.keys(results)).toHaveLength(6);
    for (const [scope, result] of Object.entries(results)) expect(result, scope).toEqual({ wrote: "EBADF" });
    await sleep(200);
    expect(sink.hits().bytes).toBe("");
  }, 90_000);
});

describe("the process boundary (class 2: bwrap's pid 1)", () => {
  it("a program cannot ptrace pid 1 to outlive its run: nothing writes into the workspace afterwards", async () => {
    const ws = await scratchDir();
    // Outside the workspace, where an installed tool lives (its directory read-only); the workspace
    // stays writable, so a missing marker means the attack failed, not that the write could not land.
    const attacks = await buildAttacks(await scratchDir());
    const marker = path.join(ws, "outlived");
    const scopes: Omit<LocalProcessSandboxOptions, "workspaceDir">[] = [
      { filesystemScope: "workspace", networkScope: "deny" },
      { networkScope: "deny" },
    ];
    for (const scope of scopes) {
      const result = await runAttack(attacks, ["outlive-init", marker], scope, ws);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toBe("seize Operation not permitted\n");
    }
    await sleep(OUTLIVE_WAIT_MS);
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  it("a program cannot write into pid 1 through /proc/1/mem to outlive its run, in any scope or spawn", async () => {
    const ws = await scratchDir();
    // Outside the workspace, where an installed tool lives (its directory read-only); the workspace
    // stays writable, so a missing marker means the attack failed, not that the write could not land.
    const attacks = await buildAttacks(await scratchDir());
    const marker = path.join(ws, "outlived");
    const allowed = await echoServer();
    const scopes: Omit<LocalProcessSandboxOptions, "workspaceDir">[] = [
      { filesystemScope: "workspace", networkScope: "deny" },
      { filesystemScope: "workspace" },
      { networkScope: "deny" },
      { networkScope: "allowlist", networkAllowlist: [`127.0.0.1:${allowed}`] },
    ];
    const said: Record<string, string> = {};
    for (const scope of scopes) {
      const args = ["outlive-init-mem", marker];
      said[`helper ${JSON.stringify(scope)}`] = (await runAttack(attacks, args, scope, ws)).stdout;
      // A caller that spawns the argv itself has no kill of pid 1 after the run: pid 1 is all there is.
      const target = await buildLocalProcessSandboxSpawnTarget({
        executable: attacks,
        args,
        cwd: ws,
        options: { workspaceDir: ws, ...scope },
      });
      onCleanup(() => target.cleanup?.() ?? Promise.resolve());
      said[`own spawn ${JSON.stringify(scope)}`] = (await spawnTarget(target)).stdout;
    }
    await sleep(OUTLIVE_WAIT_MS);
    const refused = Object.fromEntries(Object.keys(said).map((run) => [run, "mem ENOENT\n"]));
    expect({ said, outlived: existsSync(marker) }).toEqual({ said: refused, outlived: false });
  }, 90_000);

  it("the host kills the whole sandbox by its pid 1 even when the program did get hold of pid 1", async () => {
    // No filter here (a bwrap started by hand): the attack succeeds inside, the kill still holds.
    const ws = await scratchDir();
    const attacks = await buildAttacks(ws);
    const marker = path.join(ws, "outlived");
    const status = ["--json-status-fd", "3"];
    const unfiltered = [
      "--dev-bind",
      "/",
      "/",
      "--unshare-pid",
      "--proc",
      "/proc",
      "--die-with-parent",
      "--new-session",
    ];
    const bwrap = spawn(
      "bwrap",
      [...status, ...unfiltered, "--cap-drop", "ALL", "--", attacks, "outlive-init", marker],
      { stdio: ["ignore", "pipe", "ignore", "pipe"] },
    );
    const init = new SandboxInit();
    let said = "";
    bwrap.stdout?.on("data", (chunk: Buffer) => (said += chunk.toString()));
    bwrap.stdio[3]?.on("data", (chunk: Buffer) => {
      const pid = /"child-pid": *(\d+)/.exec(chunk.toString())?.[1];
      if (pid) init.remember(Number(pid));
    });
    await new Promise((resolve) => bwrap.once("exit", resolve));
    expect(said).toBe("injected 0\n");
    init.kill();
    await sleep(OUTLIVE_WAIT_MS);
    expect(existsSync(marker)).toBe(false);
  }, 30_000);
});

/** What every way to reach pid 1, the bridge or the kernel's less-used parts gets under the filter. */
const FILTERED = {
  "ptrace-seize-pid1": "EPERM",
  "ptrace-seize-parent": "EPERM",
  "process_vm_readv-pid1": "EPERM",
  "process_vm_writev-pid1": "EPERM",
  "pidfd_getfd-pid1": "EPERM",
  "kcmp-pid1": "EPERM",
  perf_event_open: "EPERM",
  userfaultfd: "EPERM",
  bpf: "EPERM",
  keyctl: "EPERM",
  "unshare-user": "EPERM",
  "clone-newuser": "EPERM",
  clone3: "ENOSYS",
  setns: "EPERM",
  mount: "EPERM",
  io_uring_setup: "ENOSYS",
  "ioctl-TIOCSTI": "EPERM",
  "ioctl-TIOCSTI-high-bits": "EPERM",
  "ioctl-TIOCLINUX": "EPERM",
  "unshare-user-high-bits": "EPERM",
  "unshare-time": "EPERM",
  add_key: "EPERM",
  request_key: "EPERM",
  open_by_handle_at: "EPERM",
  open_tree: "EPERM",
  fsopen: "EPERM",
  io_uring_enter: "ENOSYS",
  // Families no network namespace holds (vsock: the hypervisor's ports) or the kernel loads on demand.
  "socket-vsock": "EAFNOSUPPORT",
  "socket-alg": "EAFNOSUPPORT",
  "socket-netlink": "ok",
  // The kernel alone says EPERM (no CAP_NET_RAW), so this fails without the filter on any host.
  "socket-packet": "EAFNOSUPPORT",
  // Generic netlink (in every kernel) loads modules for the families it is asked for.
  "socket-netlink-generic": "EPROTONOSUPPORT",
  // socketpair reaches the family's code as socket does: AF_UNIX only.
  "socketpair-unix": "ok",
  "socketpair-vsock": "EAFNOSUPPORT",
  "socketpair-packet": "EAFNOSUPPORT",
  // Killed by the filter (SIGSYS), not refused: x32 numbers exist on x86_64 only.
  ...(process.arch === "x64" ? { "x32-getpid": "SYS" } : {}),
};

describe("the seccomp filter (new attacks beyond the classes)", () => {
  it("closes every syscall way to pid 1, the bridge, new user namespaces and terminal injection, also for a caller that spawns the argv itself", async () => {
    const ws = await scratchDir();
    const attacks = await buildAttacks(ws);
    const allowed = await echoServer();
    const scopes: Omit<LocalProcessSandboxOptions, "workspaceDir">[] = [
      { filesystemScope: "workspace", networkScope: "deny" },
      { networkScope: "allowlist", networkAllowlist: [`127.0.0.1:${allowed}`], networkBridge: "native" },
    ];
    for (const scope of scopes) {
      const helper = await runAttack(attacks, ["syscalls"], scope, ws);
      expect(helper.exitCode, helper.stderr).toBe(0);
      expect(outcomes(helper.stdout), `spawn helper: ${JSON.stringify(scope)}`).toEqual(FILTERED);
      // bwrap without --seccomp, as upstream's callers spawn it: the native binary loads the filter.
      const target = await buildLocalProcessSandboxSpawnTarget({
        executable: attacks,
        args: ["syscalls"],
        cwd: ws,
        options: { workspaceDir: ws, ...scope },
      });
      onCleanup(() => target.cleanup?.() ?? Promise.resolve());
      const direct = await spawnTarget(target);
      expect(direct.code, direct.stderr).toBe(0);
      expect(outcomes(direct.stdout), `own spawn: ${JSON.stringify(scope)}`).toEqual(FILTERED);
    }
  }, 90_000);

  it("leaves the program's ordinary tools working: sh, git, node, npm", async () => {
    const ws = await scratchDir();
    const line = [
      "sh -c 'echo sh ok'",
      "git init -q repo && git -C repo -c user.email=a@b -c user.name=n commit -q --allow-empty -m m && echo git ok",
      `${process.execPath} -e "require('node:child_process').execFileSync('true'); require('node:fs').readFileSync('/proc/self/status'); require('node:os').networkInterfaces(); console.log('node ok')"`,
      "npm --version >/dev/null && echo npm ok",
    ].join(" && ");
    const result = await runChildProcess("tools", "/bin/sh", ["-c", line], {
      cwd: ws,
      env: { HOME: ws, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` },
      timeoutSec: 60,
      graceSec: 1,
      onLog: async () => {},
      localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ws, networkScope: "deny" },
    });
    expect(result.stdout, result.stderr).toBe("sh ok\ngit ok\nnode ok\nnpm ok\n");
  }, 90_000);
});

describe("the process boundary (class 8: a pids limit per run)", () => {
  it("a fork bomb stops at maxProcesses, and nothing of the run is left afterwards", async () => {
    const ws = await scratchDir();
    const attacks = await buildAttacks(ws);
    const result = await runAttack(
      attacks,
      ["fork-count", "400"],
      { networkScope: "deny", maxProcesses: 40 },
      ws,
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const started = Number(/^started (\d+)$/m.exec(result.stdout)?.[1]);
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThan(40);
  }, 60_000);

  it("the run's cgroup holds every process bwrap starts, and its kill leaves none", async () => {
    const launcher = await usableNativeBinary();
    const cgroup = createRunCgroup(64);
    expect(launcher && cgroup, "root can create a pids cgroup here").toBeTruthy();
    onCleanup(() => cgroup!.remove());
    const bwrap = spawn(
      launcher!,
      [
        "--cgroup",
        cgroup!.procsFile,
        "--",
        "bwrap",
        "--dev-bind",
        "/",
        "/",
        "--unshare-pid",
        "--",
        "sh",
        "-c",
      ].concat(["sleep 30 & sleep 30 & echo started; wait"]),
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    await new Promise<void>((resolve) => bwrap.stdout?.once("data", () => resolve()));
    const members = (await exec("cat", [cgroup!.procsFile])).stdout.trim().split("\n");
    // bwrap, its pid 1, the shell and both sleeps.
    expect(members.length).toBeGreaterThanOrEqual(5);
    await cgroup!.kill();
    expect((await exec("cat", [cgroup!.procsFile])).stdout).toBe("");
    const exited = bwrap.exitCode !== null || bwrap.signalCode !== null;
    if (!exited) await new Promise((resolve) => bwrap.once("exit", resolve));
  }, 30_000);
});
