import { spawn } from "node:child_process";
import { mkdir, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createNetworkProxyTempDir } from "../src/temp-dir/create-network-proxy-temp-dir.js";
import {
  type OwnerRecord,
  processStartTicks,
  readOwnerRecord,
  removeOwnerRecord,
  writeOwnerRecord,
} from "../src/temp-dir/owner-record.js";
import { removeProxyTempDir } from "../src/temp-dir/remove-proxy-temp-dir.js";
import { sweepStaleProxyDirs } from "../src/temp-dir/sweep-stale-dirs.js";
import {
  bindRepoView,
  builtEntry,
  cleanupAll,
  inPrivateMountNamespace,
  onCleanup,
  SETTLE,
  scratchDir,
  viaRepoView,
} from "./sandbox-support.js";

afterEach(cleanupAll);

const DEEP = Array.from({ length: 6 }, () => "deep-temporary-directory-segment").join("/");

interface ChildOutcome {
  dir?: string;
  /** Output of a program run in the sandbox by a `body`. */
  stdout?: string;
  exitCode?: number | null;
  error?: {
    code: string;
    message: string;
    cause: { code?: string; message: string } | null;
    attempts: unknown[];
  };
}

/**
 * Runs `createNetworkProxyTempDir()` from the built package in a fresh mount
 * namespace where `/tmp` is replaced as `tmpfsOptions` says, optionally as the
 * unprivileged user `nobody`, with `TMPDIR` as given. This reproduces the seed
 * page's triggers for real: EACCES, EROFS, ENOSPC and a too-deep TMPDIR.
 */
async function inMountNamespace(options: {
  tmpfsOptions: string;
  setup?: string;
  asNobody: boolean;
  tmpdir: string;
  /** Module code run in place of `createNetworkProxyTempDir()`; `sandbox` is the built package; it prints its own result. */
  body?: string;
}): Promise<ChildOutcome> {
  const script = `
    const sandbox = await import(${JSON.stringify(viaRepoView(builtEntry))});
    try {
      ${options.body ?? "console.log(JSON.stringify({ dir: await sandbox.createNetworkProxyTempDir() }));"}
    } catch (error) {
      const cause = error.cause ? { code: error.cause.code, message: error.cause.message } : null;
      console.log(JSON.stringify({ error: { code: error.code, message: error.message, cause, attempts: error.details.attempts } }));
    }`;
  const asUser = options.asNobody ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  const shell = [
    bindRepoView,
    `mount -t tmpfs -o ${options.tmpfsOptions} paperclip-test /tmp`,
    options.setup ?? "true",
    `exec ${asUser}${shellQuote(process.execPath)} --input-type=module -e "$SCRIPT"`,
  ].join(" && ");
  const result = await inPrivateMountNamespace(shell, {
    PATH: process.env.PATH,
    TMPDIR: options.tmpdir,
    SCRIPT: script,
  });
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as ChildOutcome;
}

describe("createNetworkProxyTempDir", () => {
  it("creates a 0700 directory under /tmp with an owner record, even with a deep TMPDIR", async () => {
    const deep = path.join(await scratchDir(), DEEP);
    await mkdir(deep, { recursive: true });
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = deep;
    try {
      const dir = await createNetworkProxyTempDir();
      onCleanup(() => removeProxyTempDir(dir));
      expect(dir).toMatch(/^\/tmp\/paperclip-network-sandbox-/);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      // The owner record lives in a private socket root, where no sandbox can rewrite it.
      expect(await readdir(dir)).toEqual([]);
      expect(await readOwnerRecord(dir)).toEqual({
        pid: process.pid,
        startTicks: processStartTicks(process.pid),
      });
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
  });

  it("falls back to the next candidate when /tmp is not writable for the user", async () => {
    const outcome = await inMountNamespace({
      tmpfsOptions: "mode=0755",
      setup: "mkdir -m 1777 /tmp/short",
      asNobody: true,
      tmpdir: "/tmp/short",
    });
    expect(outcome.dir).toMatch(/^\/tmp\/short\/paperclip-network-sandbox-/);
  });

  it("names each candidate's own failure when /tmp is unwritable and TMPDIR too deep", async () => {
    const deep = `/tmp/${DEEP}`;
    const outcome = await inMountNamespace({
      tmpfsOptions: "mode=0755",
      setup: `mkdir -p ${deep} && chmod -R 0777 /tmp/deep-temporary-directory-segment`,
      asNobody: true,
      tmpdir: deep,
    });
    const error = outcome.error!;
    expect(error.code).toBe("ERR_SANDBOX_PROXY_SOCKET_DIR");
    expect(error.message).toBe("Unable to create a Linux-safe Paperclip sandbox proxy socket directory.");
    expect(error.attempts).toEqual([
      { baseDir: "/tmp", code: "EACCES", reason: expect.stringContaining("EACCES") },
      {
        baseDir: deep,
        code: "ERR_SANDBOX_SOCKET_PATH_TOO_LONG",
        reason: expect.stringContaining("over the Linux limit of 107"),
        socketPathBytes: Buffer.byteLength(`${deep}/paperclip-network-sandbox-XXXXXX/proxy.sock`),
      },
    ]);
    // The cause is the last failure: the too-long socket path.
    expect(error.cause?.code).toBe("ERR_SANDBOX_SOCKET_PATH_TOO_LONG");
    expect(error.cause?.message).toMatch(/exceeding the Linux limit of 107/);
  });

  it("reports EROFS for a read-only /tmp and TMPDIR", async () => {
    const outcome = await inMountNamespace({ tmpfsOptions: "ro", asNobody: false, tmpdir: "/tmp" });
    expect(outcome.error?.code).toBe("ERR_SANDBOX_PROXY_SOCKET_DIR");
    expect(outcome.error?.attempts).toEqual([
      { baseDir: "/tmp", code: "EROFS", reason: expect.stringContaining("EROFS") },
    ]);
    expect(outcome.error?.cause?.code).toBe("EROFS");
  });

  it("reports ENOSPC for a full /tmp (no inodes left)", async () => {
    const outcome = await inMountNamespace({
      tmpfsOptions: "size=64k,nr_inodes=2",
      setup: "touch /tmp/fill",
      asNobody: false,
      tmpdir: "/tmp",
    });
    expect(outcome.error?.code).toBe("ERR_SANDBOX_PROXY_SOCKET_DIR");
    expect(outcome.error?.attempts).toEqual([
      { baseDir: "/tmp", code: "ENOSPC", reason: expect.stringContaining("ENOSPC") },
    ]);
  });

  it("takes the candidates from the option and reports ENOENT for a missing base", async () => {
    const base = await scratchDir();
    try {
      await createNetworkProxyTempDir({
        candidates: [path.join(base, "missing"), `${base}/${DEEP}/${DEEP}`],
      });
      expect.unreachable();
    } catch (error) {
      expect(PaperclipError.is(error, "ERR_SANDBOX_PROXY_SOCKET_DIR")).toBe(true);
      const attempts = (error as PaperclipError).details.attempts as { code: string }[];
      expect(attempts.map((attempt) => attempt.code)).toEqual(["ENOENT", "ENOENT"]);
      expect((error as PaperclipError).retryable).toBe(false);
    }
  });
});

describe("the per-run directory of the network-only deny scope", () => {
  // Every private socket root unusable (read-only), so the run directory falls back to
  // the temporary-directory candidates these cases are about.
  const noPrivateRoots =
    "mount -t tmpfs -o ro pc-test-shm /dev/shm && { test ! -d /run/user || mount -t tmpfs -o ro pc-test-run-user /run/user; }";
  const privateRootAttempts = (uid: number, tmpCode: string) => [
    {
      baseDir: `/dev/shm/paperclip-sandbox-sockets-${uid}`,
      code: "EROFS",
      reason: expect.stringContaining("EROFS"),
    },
    {
      baseDir: `/tmp/paperclip-sandbox-sockets-${uid}`,
      code: tmpCode,
      reason: expect.stringContaining(tmpCode),
    },
    {
      baseDir: `/run/user/${uid}/paperclip-sandbox-sockets-${uid}`,
      code: "ENOENT",
      reason: expect.stringContaining("ENOENT"),
    },
  ];
  // Builds a deny-scope target from the built package and reports the per-run directory
  // (the source bound over /tmp is one of its mask directories) and whether cleanup removed it.
  const buildDenyTarget = `
    const { existsSync } = await import("node:fs");
    const target = await sandbox.buildLocalProcessSandboxSpawnTarget({
      executable: "/bin/true", args: [], cwd: process.env.TMPDIR,
      options: { workspaceDir: process.env.TMPDIR, networkScope: "deny" },
    });
    const tmpSource = target.args[target.args.lastIndexOf("/tmp") - 1];
    const dir = tmpSource.slice(0, tmpSource.lastIndexOf("/"));
    const existed = existsSync(dir);
    await target.cleanup();
    console.log(JSON.stringify({ dir, stdout: String(existed && !existsSync(dir)) }));`;

  it("lives in the first private socket root that allows exec, where the program can run files from its /tmp", async () => {
    const runFromTmp = `
      const result = await sandbox.runChildProcess("run-from-tmp", "sh", ["-c", "cp /bin/true /tmp/t && /tmp/t && echo ran"], {
        cwd: "/tmp/ws", env: {}, timeoutSec: 20, graceSec: 1, onLog: async () => {},
        localProcessSandbox: { workspaceDir: "/tmp/ws", networkScope: "deny" },
      });
      console.log(JSON.stringify({ stdout: result.stdout, exitCode: result.exitCode }));`;
    for (const [shmOptions, root] of [
      ["mode=1777", "/dev/shm/paperclip-sandbox-sockets-0"],
      ["mode=1777,noexec", "/tmp/paperclip-sandbox-sockets-0"],
    ] as const) {
      const namespace = {
        tmpfsOptions: "mode=1777",
        setup: `mkdir /tmp/ws && mount -t tmpfs -o ${shmOptions} pc-test-shm /dev/shm`,
        asNobody: false,
        tmpdir: "/tmp/ws",
      };
      const built = await inMountNamespace({ ...namespace, body: buildDenyTarget });
      expect(built.dir, shmOptions).toMatch(new RegExp(`^${root}/paperclip-network-sandbox-\\w{6}$`));
      expect(built.stdout, "cleanup removed it").toBe("true");
      expect(await inMountNamespace({ ...namespace, body: runFromTmp }), shmOptions).toEqual({
        stdout: "ran\n",
        exitCode: 0,
      });
    }
  });

  it("fails with ERR_SANDBOX_RUN_DIR, not the proxy socket error, when no candidate is usable", async () => {
    const outcome = await inMountNamespace({
      tmpfsOptions: "ro",
      setup: noPrivateRoots,
      asNobody: false,
      tmpdir: "/tmp",
      body: buildDenyTarget,
    });
    const error = outcome.error!;
    expect(error.code).toBe("ERR_SANDBOX_RUN_DIR");
    expect(error.message).toBe(
      "Unable to create the per-run Paperclip sandbox directory (private /tmp and /run masks of the network-only scope).",
    );
    expect(error.attempts).toEqual([
      ...privateRootAttempts(0, "EROFS"),
      { baseDir: "/tmp", code: "EROFS", reason: expect.stringContaining("EROFS") },
    ]);
    expect(error.cause?.code).toBe("EROFS");
  });

  it("lists every candidate's own failure", async () => {
    const outcome = await inMountNamespace({
      tmpfsOptions: "mode=0755",
      setup: `mkdir -m 0755 /tmp/locked && ${noPrivateRoots}`,
      asNobody: true,
      tmpdir: "/tmp/locked",
      body: buildDenyTarget,
    });
    expect(outcome.error?.code).toBe("ERR_SANDBOX_RUN_DIR");
    expect(outcome.error?.attempts).toEqual([
      ...privateRootAttempts(65534, "EACCES"),
      { baseDir: "/tmp", code: "EACCES", reason: expect.stringContaining("EACCES") },
      { baseDir: "/tmp/locked", code: "EACCES", reason: expect.stringContaining("EACCES") },
    ]);
  });

  it("uses a deep TMPDIR, where the allowlist's socket directory cannot, and runs in it", async () => {
    const deep = `/tmp/${DEEP}`;
    const namespace = {
      tmpfsOptions: "mode=0755",
      setup: `mkdir -p ${deep} && chmod -R 0777 /tmp/deep-temporary-directory-segment && ${noPrivateRoots}`,
      asNobody: true,
      tmpdir: deep,
    };
    const denied = await inMountNamespace({ ...namespace, body: buildDenyTarget });
    expect(denied.error).toBeUndefined();
    expect(denied.dir?.startsWith(`${deep}/paperclip-network-sandbox-`)).toBe(true);
    // Longer than a socket path may be, and cleanup removed it.
    expect(Buffer.byteLength(`${denied.dir}/proxy.sock`)).toBeGreaterThan(107);
    expect(denied.stdout).toBe("true");

    // The program really runs with its private /tmp there.
    const ran = await inMountNamespace({
      ...namespace,
      body: `
        const result = await sandbox.runChildProcess("run-deep", "sh", ["-c", "echo private > /tmp/probe && cat /tmp/probe"], {
          cwd: process.env.TMPDIR, env: {}, timeoutSec: 20, graceSec: 1, onLog: async () => {},
          localProcessSandbox: { workspaceDir: process.env.TMPDIR, networkScope: "deny" },
        });
        console.log(JSON.stringify({ stdout: result.stdout, exitCode: result.exitCode }));`,
    });
    expect(ran).toEqual({ stdout: "private\n", exitCode: 0 });

    const allowlisted = await inMountNamespace({
      ...namespace,
      body: `
        await sandbox.buildLocalProcessSandboxSpawnTarget({
          executable: "/bin/true", args: [], cwd: process.env.TMPDIR,
          options: { workspaceDir: process.env.TMPDIR, networkScope: "allowlist", networkAllowlist: ["example.com"] },
        });`,
    });
    expect(allowlisted.error?.code).toBe("ERR_SANDBOX_PROXY_SOCKET_DIR");
  });
});

describe("stale proxy directories", () => {
  async function deadPid(): Promise<number> {
    const child = spawn(process.execPath, ["-e", ""]);
    const pid = child.pid!;
    await new Promise((resolve) => child.on("exit", resolve));
    return pid;
  }

  it("removes directories of dead owners only", async () => {
    const base = await scratchDir();
    const make = async (name: string, record: OwnerRecord | null) => {
      const dir = path.join(base, `paperclip-network-sandbox-${name}`);
      await mkdir(dir);
      if (record) writeOwnerRecord(dir, record);
      return dir;
    };
    const dead = await make("dead01", { pid: await deadPid(), startTicks: null });
    const reused = await make("reuse1", { pid: process.pid, startTicks: "1" });
    const alive = await make("alive1", { pid: process.pid, startTicks: processStartTicks(process.pid) });
    const foreign = await make("nornd1", null);
    const removed = await sweepStaleProxyDirs(base);
    onCleanup(async () => {
      await removeOwnerRecord(alive);
    });
    expect(removed.sort()).toEqual([dead, reused].sort());
    expect((await readdir(base)).sort()).toEqual([path.basename(alive), path.basename(foreign)].sort());
  });

  it("are swept by the next createNetworkProxyTempDir on that candidate", async () => {
    const base = await scratchDir();
    const stale = path.join(base, "paperclip-network-sandbox-stale1");
    await mkdir(stale);
    writeOwnerRecord(stale, { pid: await deadPid(), startTicks: null });
    const fresh = await createNetworkProxyTempDir({ candidates: [base] });
    onCleanup(() => removeProxyTempDir(fresh));
    // The sweep runs in the background of that start, so the start does not wait for it.
    await vi.waitFor(async () => expect(await readdir(base)).toEqual([path.basename(fresh)]), SETTLE);
  });
});
