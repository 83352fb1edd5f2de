import { type ChildProcess, spawn } from "node:child_process";
import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import {
  builtEntry,
  canaryServer,
  cleanupAll,
  loopbackServer,
  onCleanup,
  packageDir,
  scratchDir,
} from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * No sandbox reaches another run's proxy socket, wherever that run's proxy
 * directory lives and whichever process started it. Two other host processes of
 * this user, each with its own TMPDIR and XDG_RUNTIME_DIR, hold allowlist runs
 * whose proxy directories sit in every base directory the package may choose
 * (/tmp, TMPDIR, $XDG_RUNTIME_DIR, a caller's base); their allowlist opens a
 * canary server. A sandbox of each scope is told every one of their socket
 * paths (upstream's `<proxydir>/proxy.sock` and the private socket behind it),
 * searches the directories it can see and /proc/net/unix for more, and tries to
 * connect to each. None may open; the canary must see nothing; the sandbox's
 * own allowed traffic must still flow.
 */

interface HeldRun {
  name: string;
  contract: string;
  real: string;
}

const FIXTURES = path.join(packageDir, "test", "fixtures");

/** Starts another host process holding runs in each base directory; returns their sockets. */
async function otherProcess(root: string, name: string, canaryPort: number): Promise<HeldRun[]> {
  const tmpdir = path.join(root, `${name}-tmp`, "nested", "deeper");
  const xdg = path.join(root, `${name}-xdg`);
  const callerBase = path.join(root, `${name}-caller`);
  const workspace = path.join(root, `${name}-ws`);
  for (const dir of [tmpdir, xdg, callerBase, workspace]) await mkdir(dir, { recursive: true, mode: 0o700 });
  const spec = {
    workspace,
    canaryPort,
    runs: [
      { name: `${name}:/tmp` },
      { name: `${name}:TMPDIR`, candidates: [tmpdir] },
      { name: `${name}:XDG_RUNTIME_DIR`, candidates: [xdg] },
      { name: `${name}:caller base`, candidates: [callerBase] },
    ],
  };
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(FIXTURES, "hold-proxy-runs.mjs"), builtEntry, JSON.stringify(spec)],
    {
      env: { PATH: process.env.PATH, TMPDIR: tmpdir, XDG_RUNTIME_DIR: xdg },
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.stdin!.end();
    await exited;
  });
  let output = "";
  child.stdout!.setEncoding("utf8");
  for await (const chunk of child.stdout!) {
    output += chunk;
    if (output.includes("\n")) break;
  }
  const runs = JSON.parse(output) as HeldRun[];
  expect(runs.map((run) => run.name)).toEqual(spec.runs.map((run) => run.name));
  // Each run's proxy directory is where it was asked to be; the socket behind it is private.
  expect(runs.map((run) => path.dirname(path.dirname(run.contract)))).toEqual([
    "/tmp",
    tmpdir,
    xdg,
    callerBase,
  ]);
  for (const run of runs)
    expect(run.real).toMatch(/\/paperclip-sandbox-sockets-\d+\/paperclip-network-sandbox-/);
  return runs;
}

const SCOPES: { name: string; options: Partial<LocalProcessSandboxOptions>; allowlist: boolean }[] = [
  { name: "network-only deny", options: { networkScope: "deny" }, allowlist: false },
  { name: "network-only allowlist", options: { networkScope: "allowlist" }, allowlist: true },
  {
    name: "workspace + deny",
    options: { filesystemScope: "workspace", networkScope: "deny" },
    allowlist: false,
  },
  // No network scope: the host's network namespace, so /proc/net/unix lists the real socket paths.
  { name: "workspace only", options: { filesystemScope: "workspace" }, allowlist: false },
  {
    name: "workspace + allowlist",
    options: { filesystemScope: "workspace", networkScope: "allowlist" },
    allowlist: true,
  },
];

describe("no sandbox reaches another run's proxy socket", () => {
  it("from any scope, to runs of two other processes in every base directory", async () => {
    const root = await scratchDir("pc-sbx-xrun-");
    const canary = await canaryServer();
    const allowed = await loopbackServer("allowed-response");
    const held = [
      ...(await otherProcess(root, "p1", canary.port)),
      ...(await otherProcess(root, "p2", canary.port)),
    ];
    const uid = process.getuid?.() ?? 0;
    const targets = held.flatMap((run) => [run.contract, run.real]);

    for (const scope of SCOPES) {
      const ws = await scratchDir();
      await copyFile(path.join(FIXTURES, "reach-other-sockets.cjs"), path.join(ws, "reach.cjs"));
      const input = {
        targets,
        searchDirs: [root, "/tmp", "/dev/shm", `/run/user/${uid}`],
        canaryPort: canary.port,
        allowedPort: scope.allowlist ? allowed.port : null,
      };
      const result = await runChildProcess("reach", process.execPath, ["reach.cjs", JSON.stringify(input)], {
        cwd: ws,
        env: {},
        timeoutSec: 60,
        graceSec: 1,
        onLog: async () => {},
        localProcessSandbox: {
          workspaceDir: ws,
          command: "/usr/bin/bwrap",
          networkAllowlist: [`127.0.0.1:${allowed.port}`],
          // The worst case for the workspace scope: every directory the others use is visible.
          extraPaths: [
            { path: root, access: "ro" },
            { path: "/dev/shm", access: "ro" },
          ],
          ...scope.options,
        },
      });
      expect(result.exitCode, `${scope.name}: ${result.stderr}`).toBe(0);
      const report = JSON.parse(result.stdout) as {
        attempts: { path: string; reached: boolean; detail: string }[];
        ownStatus: string | null;
      };
      const tried = new Set(report.attempts.map((attempt) => attempt.path));
      for (const target of targets) expect(tried.has(target), `${scope.name} tried ${target}`).toBe(true);
      expect(
        report.attempts.filter((attempt) => attempt.reached),
        scope.name,
      ).toEqual([]);
      for (const attempt of report.attempts) {
        expect(["ENOENT", "ECONNREFUSED", "ENOTDIR", "EACCES"], `${scope.name}: ${attempt.path}`).toContain(
          attempt.detail,
        );
      }
      expect(report.ownStatus, scope.name).toBe(scope.allowlist ? "HTTP/1.1 200 OK" : null);
    }
    expect(canary.hits).toEqual([]);
  }, 120_000);
});
