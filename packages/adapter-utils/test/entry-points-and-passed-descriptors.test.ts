import { spawn } from "node:child_process";
import { readdir, readFile, readlink, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { buildStaticFixture, runSandboxed } from "./attack-support.js";
import { cleanupAll, exec, loopbackServer, onCleanup, scratchDir } from "./sandbox-support.js";
import { runInScopeMatrix, SCOPE_MATRIX, scopeMatrixWorkspace } from "./scope-matrix.js";

afterEach(cleanupAll);

type Scope = Omit<LocalProcessSandboxOptions, "workspaceDir">;

const ALLOWLIST: Scope = { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"] };

/** Runs the attacks binary (built in a fresh workspace) in `scope`; its stdout as "name outcome" pairs. */
async function attackIn(scope: Scope, args: string[]): Promise<Record<string, string>> {
  const ws = await scratchDir();
  const binary = await buildStaticFixture("entry-point-attacks", ws);
  const stdout = await runSandboxed(ws, scope, binary, args);
  return Object.fromEntries(
    stdout
      .trim()
      .split("\n")
      .map((line) => line.split(" ") as [string, string]),
  );
}

describe("the kernel's other ways in", () => {
  // Every entry into the syscall table but the native one ends the process that takes it:
  // i386 `int 0x80` (the filter's arch check), x32 numbers and -1 (its x32 check, which
  // takes every number from 0x40000000 up). The calls a deny list usually
  // names and this one leaves to the kernel refuse an unprivileged caller, or are harmless:
  // a file handle opens only with CAP_DAC_READ_SEARCH; another process's pages (the
  // bridge's) need ptrace read access, which its PR_SET_DUMPABLE 0 refuses; chroot needs a
  // capability, and fanotify_init is the filter's now (its FID mode takes the uid's groups:
  // per-user-kernel-pools.test.ts); the devices behind denied calls are not in bwrap's /dev.
  const ENTRIES_HELD = {
    ...(process.arch === "x64"
      ? {
          "int80-getpid": "SYS",
          "int80-ptrace": "SYS",
          "int80-TIOCSTI": "SYS",
          "x32-ptrace": "SYS",
          "x32-TIOCSTI": "SYS",
        }
      : {}),
    "nr-minus-one": "SYS",
    // Below the x32 bit, a number the table lacks is only ENOSYS: the child goes on and exits.
    "nr-past-table": "exited",
    open_by_handle_at: "EPERM",
    fanotify_init: "EPERM",
    chroot: "EPERM",
    "open-userfaultfd": "ENOENT",
    "open-kvm": "ENOENT",
    "open-tty0": "ENOENT",
    "open-console": "ENOENT",
    "open-mem": "ENOENT",
    "open-kmsg": "ENOENT",
  };

  it("i386 and x32 entries are killed, and handles, devices and capabilities lead nowhere, in every scope", async () => {
    for (const [name, scope] of Object.entries({
      ...SCOPE_MATRIX,
      allowlistWorkspace: { ...ALLOWLIST, filesystemScope: "workspace" },
    })) {
      const seen = await attackIn(scope as Scope, ["entries"]);
      expect(seen, name).toMatchObject(ENTRIES_HELD);
      // The handle itself is made (the kernel allows it), so the refusal above is the open's.
      expect(seen.name_to_handle_at, name).toBe("ok");
    }
  }, 120_000);

  it("the native bridge's pages and memory advice are not the program's to touch", async () => {
    // The Node bridge is dumpable (process-boundary.md): only the native one holds host sockets.
    const seen = await attackIn(ALLOWLIST, ["entries"]);
    expect(seen["move_pages-bridge"]).toBe("EPERM");
    expect(seen["migrate_pages-bridge"]).toBe("EPERM");
    expect(["EPERM", "EACCES"]).toContain(seen["process_madvise-bridge"]);
  });
});

/** `nice` and I/O priority of a host process, from /proc and ionice. */
async function priorities(pid: number): Promise<{ nice: number; io: string }> {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
  const io = await exec("ionice", ["-p", String(pid)]);
  return { nice: Number(fields[16]), io: io.stdout.trim() };
}

describe("calls that name every process of a uid", () => {
  it("setpriority(PRIO_USER) and ioprio_set(IOPRIO_WHO_USER) in every scope leave the host's processes of that uid alone", async () => {
    // As uid 65534, so that a sandbox that did reach its uid's processes reaches no one else's.
    const ws = await scopeMatrixWorkspace("nobody", "pc-renice-");
    await buildStaticFixture("entry-point-attacks", ws);
    const neighbour = spawn("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "600"], {
      stdio: "ignore",
    });
    onCleanup(async () => void neighbour.kill("SIGKILL"));
    const before = await priorities(neighbour.pid!);
    const run = await runInScopeMatrix(
      "nobody",
      ws,
      `console.log(JSON.stringify(require("node:child_process").execFileSync("../entry-point-attacks", ["renice-user"]).toString()))`,
    );
    expect(run.code, run.stderr).toBe(0);
    const outputs = JSON.parse(run.stdout) as Record<string, string>;
    for (const [scope, output] of Object.entries(outputs)) {
      // The kernel allows both: they reach the processes of the caller's pid namespace only.
      expect(output, scope).toBe("setpriority-user ok\nioprio_set-user ok\n");
    }
    expect(await priorities(neighbour.pid!)).toEqual(before);
  }, 120_000);
});

describe("POSIX shared memory and message queues of the host", () => {
  it("a host /dev/shm object and message queue are not there for any scope", async () => {
    const name = `pc-ipc-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const hostDir = await scratchDir();
    const binary = await buildStaticFixture("entry-point-attacks", hostDir);
    await writeFile(`/dev/shm/${name}`, "host");
    onCleanup(() => rm(`/dev/shm/${name}`, { force: true }));
    const made = await exec(binary, ["mq-create", name]);
    expect(made.stdout).toBe("mq-create ok\n");
    onCleanup(() => exec(binary, ["mq-unlink", name]));
    for (const [scope, options] of Object.entries(SCOPE_MATRIX)) {
      const seen = await attackIn(options as Scope, ["ipc", name]);
      // mq_open is the filter's (per-user-kernel-pools.test.ts), before the ipc namespace's ENOENT.
      expect(seen, scope).toEqual({ shm_open: "ENOENT", mq_open: "ENOSYS" });
    }
    expect((await stat(`/dev/shm/${name}`)).size).toBe(4);
  }, 120_000);
});

/** Every descriptor of this (the host's, the proxy's) process: where each leads. */
async function ownDescriptors(): Promise<string[]> {
  const names = await readdir("/proc/self/fd");
  const targets = await Promise.all(names.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => "")));
  return targets;
}

describe("descriptors sent to the host proxy (SCM_RIGHTS)", () => {
  it("never land in the host process, and the request they came with is served", async () => {
    const { port } = await loopbackServer("passed-ok");
    const cases: [string, Scope, string][] = [
      ["native bridge, proxy.sock", { ...ALLOWLIST, filesystemScope: "workspace" }, "proxy.sock"],
      ["native bridge, relay.sock", { ...ALLOWLIST, filesystemScope: "workspace" }, "relay.sock"],
      ["network-only, relay.sock", ALLOWLIST, "relay.sock"],
      ["Node bridge, proxy.sock", { ...ALLOWLIST, networkBridge: "node" }, "proxy.sock"],
    ];
    for (const [name, scope, socketName] of cases) {
      const ws = await scratchDir();
      const binary = await buildStaticFixture("entry-point-attacks", ws);
      const marker = path.join(ws, "marker");
      await writeFile(marker, "sandbox file");
      let answered: () => void = () => {};
      const answer = new Promise<void>((resolve) => (answered = resolve));
      let checked: string[] = [];
      // The bridge's argv names proxy.sock; relay.sock lies beside it. The Node bridge is the
      // parent of the shell that keeps the program's status, which is the program's parent.
      const line = `p=$PPID; [ "$(tr '\\0' '\\n' < /proc/$p/cmdline | sed -n 1p)" = /bin/sh ] && p=$(cut -d' ' -f4 /proc/$p/stat); s=$(tr '\\0' '\\n' < /proc/$p/cmdline | sed -n 3p); exec ${binary} pass-fds "$(dirname "$s")/${socketName}" ${marker} ${port}`;
      const run = runChildProcess("passed-fds", "/bin/sh", ["-c", line], {
        cwd: ws,
        env: {},
        timeoutSec: 30,
        graceSec: 1,
        onLog: async (_stream, chunk) => {
          if (chunk.includes("answer ")) answered();
        },
        localProcessSandbox: {
          command: "/usr/bin/bwrap",
          workspaceDir: ws,
          ...scope,
          networkAllowlist: [`127.0.0.1:${port}`],
        },
      });
      await Promise.race([answer, run]);
      // The program holds its ends open until "done": a descriptor the host took would still be here.
      checked = await ownDescriptors();
      await writeFile(path.join(ws, "done"), "");
      const result = await run;
      expect(result.exitCode, `${name}: ${result.stderr}`).toBe(0);
      expect(result.stdout, name).toBe("sendmsg ok\nanswer HTTP/1.1 200 OK\n");
      expect(
        checked.filter((target) => target === marker),
        name,
      ).toEqual([]);
    }
  }, 120_000);
});
