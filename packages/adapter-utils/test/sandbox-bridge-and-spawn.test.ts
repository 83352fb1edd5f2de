import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import {
  cleanupAll,
  loopbackServer,
  runNodeInSandbox,
  runShellInSandbox,
  scratchDir,
} from "./sandbox-support.js";

afterEach(cleanupAll);

async function scopes(): Promise<
  { name: string; options: LocalProcessSandboxOptions; candidates: string }[]
> {
  const { port } = await loopbackServer("x");
  const result = [];
  for (const [name, extra] of [
    [
      "workspace + allowlist (native bridge)",
      { filesystemScope: "workspace", networkScope: "allowlist", networkBridge: "native" },
    ],
    [
      "workspace + allowlist (Node bridge)",
      { filesystemScope: "workspace", networkScope: "allowlist", networkBridge: "node" },
    ],
    ["network-only allowlist (native bridge)", { networkScope: "allowlist", networkBridge: "native" }],
    ["network-only allowlist (Node bridge)", { networkScope: "allowlist", networkBridge: "node" }],
    ["workspace + deny", { filesystemScope: "workspace", networkScope: "deny" }],
  ] as const) {
    const ws = await scratchDir();
    const candidates = await scratchDir("pc-sbx-cand-");
    result.push({
      name,
      candidates,
      options: {
        workspaceDir: ws,
        networkAllowlist: [`127.0.0.1:${port}`],
        proxySocketDirCandidates: [candidates],
        ...extra,
      } as LocalProcessSandboxOptions,
    });
  }
  return result;
}

/** Host processes whose command line contains `marker`. */
async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, "utf8").catch(() => "");
    if (cmdline.includes(marker)) found.push(Number(name));
  }
  return found;
}

describe("exit status, signals and cleanup", () => {
  for (const bridge of ["native", "node"] as const) {
    it(`starts the ${bridge} bridge as the program's parent${bridge === "node" ? " (through its status-keeping shell)" : ""}, and gives NODE_EXTRA_CA_CERTS and NODE_OPTIONS to the program unchanged${bridge === "native" ? " (its own environment unreadable to the program)" : ""}`, async () => {
      const ws = await scratchDir();
      const { port } = await loopbackServer("x");
      // The bridge is the program's parent (the Node bridge's through the shell that keeps the
      // program's status); its own environment shows what it was started with.
      const script = `
        const fs = require("node:fs");
        const keys = (env) => Object.keys(env).filter((k) => k === "NODE_EXTRA_CA_CERTS" || k === "NODE_OPTIONS" || k.startsWith("PAPERCLIP_SANDBOX_BRIDGE_"));
        const argvOf = (pid) => fs.readFileSync("/proc/" + pid + "/cmdline", "utf8").split("\\0");
        const parentArgv = argvOf(process.ppid);
        const shell = parentArgv[0] === "/bin/sh" ? parentArgv[3] : null;
        const bridgePid = shell === null ? process.ppid : Number(fs.readFileSync("/proc/" + process.ppid + "/stat", "utf8").split(") ")[1].split(" ")[1]);
        let bridgeEnv = {};
        try {
          bridgeEnv = Object.fromEntries(fs.readFileSync("/proc/" + bridgePid + "/environ", "utf8").split("\\0").filter(Boolean).map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
        } catch (error) {
          bridgeEnv = { unreadable: error.code };
        }
        const bridgeArgv = argvOf(bridgePid);
        console.log(JSON.stringify({
          shell,
          program: Object.fromEntries(keys(process.env).map((k) => [k, process.env[k]])),
          bridgeArgv: bridgeArgv.slice(0, 2),
          bridge: bridgeEnv.unreadable ?? keys(bridgeEnv).sort(),
        }));`;
      const result = await runNodeInSandbox(
        script,
        {
          workspaceDir: ws,
          networkScope: "allowlist",
          networkAllowlist: [`127.0.0.1:${port}`],
          networkBridge: bridge,
        },
        { env: { NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt", NODE_OPTIONS: "--no-warnings" } },
      );
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        shell: bridge === "native" ? null : "paperclip-sandbox-bridge",
        program: {
          NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt",
          NODE_OPTIONS: "--no-warnings",
        },
        bridgeArgv:
          bridge === "native"
            ? [expect.stringMatching(/\/paperclip-sandbox-bridge$/), "127.0.0.1:31337"]
            : [process.execPath, expect.stringMatching(/\/bridge\.cjs$/)],
        // Node would start with them (a slower start, or user hooks in the bridge); the spawn
        // helper hands them over under a carrier name that either bridge restores for the program.
        // The native bridge is not dumpable: the program (same uid) cannot read its environment,
        // nor its descriptors, which hold the upstream sockets of handed-off tunnels.
        bridge:
          bridge === "native"
            ? "EACCES"
            : [
                "PAPERCLIP_SANDBOX_BRIDGE_DEFERRED_NODE_EXTRA_CA_CERTS",
                "PAPERCLIP_SANDBOX_BRIDGE_DEFERRED_NODE_OPTIONS",
                // The allowlist's own: Node 22 warned of its proxy agent from the bridge, on the program's stderr.
                "PAPERCLIP_SANDBOX_BRIDGE_DEFERRED_NODE_USE_ENV_PROXY",
              ],
      });
    });
  }

  it("returns the program's exact exit status, and 128+n when a signal killed it", async () => {
    for (const scope of await scopes()) {
      const exited = await runShellInSandbox("exit 3", scope.options);
      expect(exited.exitCode, scope.name).toBe(3);
      const killed = await runShellInSandbox("kill -TERM $$", scope.options);
      expect(killed.exitCode, scope.name).toBe(143);
      expect(await readdir(scope.candidates), scope.name).toEqual([]);
    }
  });

  it("starts the program only once the bridge listens, native or Node", async () => {
    const ws = await scratchDir();
    const { port } = await loopbackServer("x");
    // The very first thing the program does is to connect to the bridge.
    const script =
      'require("node:net").connect(31337, "127.0.0.1", () => process.exit(0)).on("error", (e) => { console.error(e.code); process.exit(5); });';
    for (const networkBridge of ["native", "native", "native", "node", "node", "node"] as const) {
      const result = await runChildProcess("bridge-ready", process.execPath, ["-e", script], {
        cwd: ws,
        env: {},
        timeoutSec: 20,
        graceSec: 1,
        onLog: async () => {},
        localProcessSandbox: {
          workspaceDir: ws,
          networkScope: "allowlist",
          networkAllowlist: [`127.0.0.1:${port}`],
          networkBridge,
        },
      });
      expect(result.exitCode, `${networkBridge}: ${result.stderr}`).toBe(0);
    }
  });

  it("delivers SIGTERM to the program on timeout, once, and lets it exit cleanly", async () => {
    await Promise.all(
      (await scopes()).map(async (scope) => {
        const marker = path.join(scope.options.workspaceDir, "terminated.txt");
        const result = await runShellInSandbox(
          `trap 'echo term >> ${marker}; exit 42' TERM; echo ready; while :; do sleep 0.05; done`,
          { ...scope.options },
          { timeoutSec: 3 },
        );
        expect(result.timedOut, scope.name).toBe(true);
        expect(result.exitCode, `${scope.name}: ${result.stderr}`).toBe(42);
        expect(await readFile(marker, "utf8"), scope.name).toBe("term\n");
        expect(await readdir(scope.candidates), scope.name).toEqual([]);
      }),
    );
  }, 60_000);

  it("delivers the timeout's SIGTERM exactly once, bridge or not", async () => {
    await Promise.all(
      (await scopes()).map(async (scope) => {
        const marker = path.join(scope.options.workspaceDir, "terms.txt");
        // The trap records each SIGTERM and keeps running, so a second delivery would show.
        const result = await runShellInSandbox(
          `trap 'echo term >> ${marker}' TERM; while :; do sleep 0.05; done`,
          scope.options,
          { timeoutSec: 3 },
        );
        expect(result.timedOut, scope.name).toBe(true);
        expect(await readFile(marker, "utf8"), scope.name).toBe("term\n");
      }),
    );
  }, 60_000);

  it("kills a program that ignores SIGTERM after the grace period, leaving no process behind", async () => {
    await Promise.all(
      (await scopes()).map(async (scope) => {
        const marker = `pc-sbx-ignore-term-${Math.random().toString(36).slice(2)}`;
        const result = await runShellInSandbox(
          `trap '' TERM; sh -c 'trap "" TERM; sleep 600 # ${marker}' & wait`,
          scope.options,
          { timeoutSec: 3 },
        );
        expect(result.timedOut, scope.name).toBe(true);
        expect(result.signal ?? String(result.exitCode), scope.name).toMatch(/SIGKILL|137/);
        expect(await processesWith(marker), scope.name).toEqual([]);
        expect(await readdir(scope.candidates), scope.name).toEqual([]);
      }),
    );
  }, 60_000);
});

describe("setup failures versus program failures", () => {
  it("a program that exits 1 is a result, not an error", async () => {
    const ws = await scratchDir();
    const result = await runShellInSandbox("echo failing >&2; exit 1", {
      workspaceDir: ws,
      filesystemScope: "workspace",
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe("failing\n");
  });

  it("bwrap failing to build the sandbox is ERR_SANDBOX_SETUP_FAILED with bwrap's stderr, and cleans up", async () => {
    const ws = await scratchDir();
    const candidates = await scratchDir("pc-sbx-cand-");
    const { port } = await loopbackServer("x");
    try {
      // bwrap cannot create a mount point inside the sandbox's /proc.
      await runShellInSandbox("exit 0", {
        workspaceDir: ws,
        filesystemScope: "workspace",
        networkScope: "allowlist",
        networkAllowlist: [`127.0.0.1:${port}`],
        pathAliases: [{ path: "/proc/pc-alias", target: ws }],
        proxySocketDirCandidates: [candidates],
      });
      expect.unreachable();
    } catch (error) {
      expect(PaperclipError.is(error, "ERR_SANDBOX_SETUP_FAILED")).toBe(true);
      const coded = error as PaperclipError;
      expect(coded.message).toMatch(/^Bubblewrap could not set up the sandbox: .*\/proc\/pc-alias/);
      expect(String(coded.details.stderr)).toMatch(/^bwrap: /);
    }
    expect(await readdir(candidates)).toEqual([]);
  });

  it("a missing bwrap, a missing command and an unstartable command are coded", async () => {
    const ws = await scratchDir();
    const base = { cwd: ws, env: {}, timeoutSec: 5, graceSec: 1, onLog: async () => {} };
    await expect(
      runChildProcess("x", "/bin/true", [], {
        ...base,
        localProcessSandbox: {
          workspaceDir: ws,
          filesystemScope: "workspace",
          command: path.join(ws, "no-bwrap"),
        },
      }),
    ).rejects.toMatchObject({
      code: "ERR_SANDBOX_BWRAP_NOT_FOUND",
      message: `Local process confinement requires Bubblewrap, but "${path.join(ws, "no-bwrap")}" was not found on the host's PATH. Install bwrap or configure filesystemSandboxCommand.`,
    });
    await expect(
      runChildProcess("x", "no-such-command-pc", [], {
        ...base,
        localProcessSandbox: { workspaceDir: ws, filesystemScope: "workspace" },
      }),
    ).rejects.toMatchObject({
      code: "ERR_SANDBOX_COMMAND_NOT_FOUND",
      message: 'Command not found in PATH: "no-such-command-pc"',
    });
    await expect(
      runChildProcess("x", "/bin/true", [], { ...base, cwd: path.join(ws, "missing-cwd") }),
    ).rejects.toMatchObject({
      code: "ERR_SANDBOX_SPAWN_FAILED",
      message: expect.stringMatching(/^Failed to start command "\/bin\/true" in /),
    });
  });

  it("streams output to onLog and passes stdin", async () => {
    const ws = await scratchDir();
    const chunks: string[] = [];
    const result = await runChildProcess("x", "/bin/sh", ["-c", "cat; echo err >&2"], {
      cwd: ws,
      env: {},
      timeoutSec: 10,
      graceSec: 1,
      stdin: "from-stdin",
      onLog: async (stream, chunk) => {
        chunks.push(`${stream}:${chunk}`);
      },
      localProcessSandbox: { workspaceDir: ws, filesystemScope: "workspace", networkScope: "deny" },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("from-stdin");
    expect(chunks.sort()).toEqual(["stderr:err\n", "stdout:from-stdin"]);
  });
});

describe("upstream options runChildProcess does not implement", () => {
  it("refuses remoteExecution and terminalResultCleanup before anything runs or is created", async () => {
    const ws = await scratchDir();
    const candidates = await scratchDir("pc-sbx-cand-");
    const marker = path.join(ws, "ran");
    const spawned: number[] = [];
    const base = {
      cwd: ws,
      env: {},
      timeoutSec: 5,
      graceSec: 1,
      onLog: async () => {},
      onSpawn: async ({ pid }: { pid: number }) => {
        spawned.push(pid);
      },
    };
    const refused = [
      { remoteExecution: { kind: "ssh", host: "127.0.0.1", port: 22, username: "agent" } },
      { terminalResultCleanup: { hasTerminalResult: () => true, graceMs: 0 } },
    ];
    for (const extra of refused) {
      for (const localProcessSandbox of [
        null,
        { workspaceDir: ws, networkScope: "deny", proxySocketDirCandidates: [candidates] } as const,
      ]) {
        await expect(
          runChildProcess("x", "/bin/sh", ["-c", `touch ${marker}`], {
            ...base,
            ...extra,
            localProcessSandbox,
          }),
        ).rejects.toMatchObject({
          code: "ERR_SANDBOX_UNSUPPORTED_OPTION",
          details: { options: Object.keys(extra) },
        });
      }
    }
    expect(spawned).toEqual([]);
    expect(await readdir(ws)).toEqual([]);
    expect(await readdir(candidates)).toEqual([]);

    // Upstream's local defaults are accepted and run locally.
    const local = await runChildProcess("x", "/bin/sh", ["-c", `touch ${marker}`], {
      ...base,
      remoteExecution: null,
      terminalResultCleanup: undefined,
    });
    expect(local.exitCode).toBe(0);
    expect(await readdir(ws)).toEqual(["ran"]);
  });
});
