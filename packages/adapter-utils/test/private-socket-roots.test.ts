import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it } from "vitest";
import {
  bindRepoView,
  builtEntry,
  cleanupAll,
  devWithShmIn,
  inPrivateMountNamespace,
  loopbackServer,
  packageDir,
  viaRepoView,
} from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * The private socket roots in order: `/dev/shm`, then `/tmp`, then
 * `/run/user/<uid>`. Each fallback is produced for real in a private mount
 * namespace (fresh tmpfs mounts, read-only where a root must be unusable), and in
 * each a run's socket lives in that root while sandboxes of every scope, even
 * ones asking to see the root's base directory, cannot reach it.
 */

interface NamespaceReport {
  error?: {
    code: string;
    message: string;
    attempts: { baseDir: string; code: string }[];
    skippedRoots?: { root: string; realBase: string; reason: string }[];
  };
  contract?: string;
  real?: string;
  leftovers?: string[];
  attacks?: { scope: string; exitCode: number | null; stdout: string; stderr: string }[];
}

/** Runs `body` (module code; `sandbox` is the built package, `spec` the JSON given) as root in a fresh mount namespace after `setup`. */
async function inNamespace(setup: string[], body: string, spec: object): Promise<NamespaceReport> {
  const script = `
    const sandbox = await import(${JSON.stringify(viaRepoView(builtEntry))});
    const spec = JSON.parse(process.env.SPEC);
    const report = {};
    try {
      ${body}
    } catch (error) {
      report.error = { code: error.code, message: error.message, attempts: error.details?.attempts, skippedRoots: error.details?.skippedRoots };
    }
    console.log(JSON.stringify(report));`;
  const shell = [
    bindRepoView,
    ...setup,
    `exec ${shellQuote(process.execPath)} --input-type=module -e "$SCRIPT"`,
  ].join(" && ");
  const result = await inPrivateMountNamespace(shell, {
    PATH: process.env.PATH,
    TMPDIR: "/run/user/tmp",
    SCRIPT: script,
    SPEC: JSON.stringify(spec),
  });
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as NamespaceReport;
}

const uid = process.getuid?.() ?? 0;
const unusableShm = "mount -t tmpfs -o ro pc-test-shm /dev/shm";
const writableTmp = "mount -t tmpfs -o mode=1777 pc-test-tmp /tmp";
const unusableTmp = "mount -t tmpfs -o ro pc-test-tmp /tmp";
const runUser = (withUidDir: boolean) =>
  [
    "mount -t tmpfs -o mode=0755 pc-test-run-user /run/user",
    "mkdir -m 1777 /run/user/tmp",
    ...(withUidDir ? [`mkdir -m 0700 /run/user/${uid}`] : []),
  ].join(" && ");

/**
 * Holds a run with the default candidates, then attacks its socket from a sandbox
 * of each scope, each also asking to see the base directory of every root.
 */
const holdAndAttack = `
  const fs = await import("node:fs");
  const path = await import("node:path");
  const victim = await sandbox.buildLocalProcessSandboxSpawnTarget({
    executable: "/bin/true", args: [], cwd: "/run/user/tmp",
    options: { workspaceDir: "/run/user/tmp", networkScope: "allowlist", networkAllowlist: ["127.0.0.1:" + spec.canaryPort] },
  });
  report.contract = victim.args[victim.args.indexOf("--") + 3];
  report.real = fs.readlinkSync(report.contract);
  const ws = fs.mkdtempSync("/run/user/tmp/ws-");
  fs.copyFileSync(spec.fixture, ws + "/reach.cjs");
  const input = { targets: [report.contract, report.real], searchDirs: ["/dev/shm", "/tmp", "/run/user"], canaryPort: spec.canaryPort, allowedPort: null };
  report.attacks = [];
  try {
  for (const [scope, options] of [
    ["network-only deny", { networkScope: "deny" }],
    ["network-only allowlist", { networkScope: "allowlist" }],
    ["workspace + deny", { filesystemScope: "workspace", networkScope: "deny" }],
    ["workspace + allowlist", { filesystemScope: "workspace", networkScope: "allowlist" }],
  ]) {
    const result = await sandbox.runChildProcess("reach", process.execPath, ["reach.cjs", JSON.stringify(input)], {
      cwd: ws, env: {}, timeoutSec: 30, graceSec: 1, onLog: async () => {},
      localProcessSandbox: {
        workspaceDir: ws, networkAllowlist: ["127.0.0.1:" + spec.allowedPort],
        extraPaths: ["/dev/shm", "/tmp", "/run/user"].map((p) => ({ path: p, access: "ro" })),
        ...options,
      },
    });
    report.attacks.push({ scope, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr });
  }
  } finally {
    await victim.cleanup();
  }
  fs.rmSync(ws, { recursive: true, force: true });
  // Upstream's proxy directory and the private one behind it are both gone.
  report.leftovers = ["/tmp", "/run/user/tmp", "/dev/shm", path.dirname(path.dirname(report.real))].flatMap((d) =>
    fs.readdirSync(d).filter((n) => n.startsWith("paperclip-network-sandbox-")),
  );`;

async function attackSpec(): Promise<object> {
  const canary = await loopbackServer("canary");
  const allowed = await loopbackServer("allowed");
  return {
    canaryPort: canary.port,
    allowedPort: allowed.port,
    fixture: viaRepoView(path.join(packageDir, "test", "fixtures", "reach-other-sockets.cjs")),
  };
}

function expectNoCrossing(report: NamespaceReport): void {
  expect(report.error).toBeUndefined();
  expect(report.attacks).toHaveLength(4);
  for (const attack of report.attacks!) {
    expect(attack.exitCode, `${attack.scope}: ${attack.stderr}`).toBe(0);
    const { attempts } = JSON.parse(attack.stdout) as { attempts: { path: string; reached: boolean }[] };
    expect(attempts.map((attempt) => attempt.path)).toEqual(
      expect.arrayContaining([report.contract, report.real]),
    );
    expect(
      attempts.filter((attempt) => attempt.reached),
      attack.scope,
    ).toEqual([]);
  }
  expect(report.leftovers).toEqual([]);
}

describe("private socket roots", () => {
  it("fall back to /tmp when /dev/shm is unusable, and no sandbox reaches the socket there", async () => {
    const report = await inNamespace(
      [unusableShm, writableTmp, runUser(true)],
      holdAndAttack,
      await attackSpec(),
    );
    expect(report.real).toMatch(
      new RegExp(`^/tmp/paperclip-sandbox-sockets-${uid}/paperclip-network-sandbox-\\w{6}/proxy\\.sock$`),
    );
    expect(report.contract).toMatch(/^\/tmp\/paperclip-network-sandbox-\w{6}\/proxy\.sock$/);
    expectNoCrossing(report);
  }, 90_000);

  it("fall back to /run/user/<uid> when /dev/shm and /tmp are unusable, and no sandbox reaches the socket there", async () => {
    const report = await inNamespace(
      [unusableShm, unusableTmp, runUser(true)],
      holdAndAttack,
      await attackSpec(),
    );
    expect(report.real).toMatch(
      new RegExp(
        `^/run/user/${uid}/paperclip-sandbox-sockets-${uid}/paperclip-network-sandbox-\\w{6}/proxy\\.sock$`,
      ),
    );
    // /tmp is read-only, so upstream's proxy directory went to TMPDIR.
    expect(report.contract).toMatch(/^\/run\/user\/tmp\/paperclip-network-sandbox-\w{6}\/proxy\.sock$/);
    expectNoCrossing(report);
  }, 90_000);

  it("refuse to start the allowlist scope when no root is usable, naming each root's failure, and leave nothing", async () => {
    const report = await inNamespace(
      [unusableShm, unusableTmp, runUser(false)],
      `
        const fs = await import("node:fs");
        try {
          await sandbox.buildLocalProcessSandboxSpawnTarget({
            executable: "/bin/true", args: [], cwd: "/run/user/tmp",
            options: { workspaceDir: "/run/user/tmp", networkScope: "allowlist", networkAllowlist: ["example.com"] },
          });
        } finally {
          report.leftovers = fs.readdirSync("/run/user/tmp");
        }`,
      {},
    );
    expect(report.error?.code).toBe("ERR_SANDBOX_PROXY_SOCKET_DIR");
    expect(report.error?.message).toBe(
      "Unable to create a Linux-safe Paperclip sandbox proxy socket directory.",
    );
    expect(report.error?.attempts.map(({ baseDir, code }) => ({ baseDir, code }))).toEqual([
      { baseDir: `/dev/shm/paperclip-sandbox-sockets-${uid}`, code: "EROFS" },
      { baseDir: `/tmp/paperclip-sandbox-sockets-${uid}`, code: "EROFS" },
      { baseDir: `/run/user/${uid}/paperclip-sandbox-sockets-${uid}`, code: "ENOENT" },
    ]);
    // Upstream's proxy directory, made first in TMPDIR, was removed again.
    expect(report.leftovers).toEqual([]);
  }, 60_000);

  it("name a root skipped because its base links outside /dev, /tmp and /run, and why", async () => {
    const shmOutside = ["mount -t tmpfs tmpfs /var/tmp", ...devWithShmIn("/var/tmp")].join(" && ");
    const report = await inNamespace(
      [shmOutside, unusableTmp, runUser(false)],
      `await sandbox.buildLocalProcessSandboxSpawnTarget({
        executable: "/bin/true", args: [], cwd: "/run/user/tmp",
        options: { workspaceDir: "/run/user/tmp", networkScope: "allowlist", networkAllowlist: ["example.com"] },
      });`,
      {},
    );
    expect(report.error?.code).toBe("ERR_SANDBOX_PROXY_SOCKET_DIR");
    expect(report.error?.attempts.map(({ baseDir }) => baseDir)).toEqual([
      `/tmp/paperclip-sandbox-sockets-${uid}`,
      `/run/user/${uid}/paperclip-sandbox-sockets-${uid}`,
    ]);
    expect(report.error?.skippedRoots).toEqual([
      {
        root: `/dev/shm/paperclip-sandbox-sockets-${uid}`,
        realBase: "/var/tmp/shm",
        reason: "its base /dev/shm leads to /var/tmp/shm, outside /dev, /tmp, /run, which a sandbox may show",
      },
    ]);
  }, 60_000);
});
