import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { buildAttacks, echoServer, spawnTarget } from "./attack-support.js";
import { cleanupAll, onCleanup, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

type Scope = Omit<LocalProcessSandboxOptions, "workspaceDir">;

async function everyScope(): Promise<Record<string, Scope>> {
  const allowlist: Scope = {
    networkScope: "allowlist",
    networkAllowlist: [`127.0.0.1:${await echoServer()}`],
  };
  return {
    networkOnlyDeny: { networkScope: "deny" },
    networkOnlyAllowlist: { ...allowlist, networkBridge: "native" },
    workspaceDeny: { filesystemScope: "workspace", networkScope: "deny" },
    workspaceAllowlistNode: { filesystemScope: "workspace", ...allowlist, networkBridge: "node" },
    workspaceOnly: { filesystemScope: "workspace" },
  };
}

function runAttack(binary: string, args: string[], scope: Scope, workspaceDir: string) {
  return runChildProcess("cross-namespace", binary, args, {
    cwd: workspaceDir,
    env: {},
    timeoutSec: 30,
    graceSec: 1,
    onLog: async () => {},
    localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir, ...scope },
  });
}

/** A host process holding vsock `port` until the test ends; what it said ("listening" where the host has vsock). */
async function holdVsockPort(attacks: string, port: number): Promise<string> {
  const holder = spawn(attacks, ["vsock-listen", String(port)], { stdio: ["pipe", "pipe", "inherit"] });
  onCleanup(async () => {
    holder.stdin?.end();
    if (holder.exitCode === null) await new Promise((resolve) => holder.once("exit", resolve));
  });
  return new Promise((resolve) =>
    holder.stdout?.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())),
  );
}

describe("sockets no network namespace separates", () => {
  it("no program creates an AF_VSOCK socket, whose ports and peers (the hypervisor) are the host's, in any scope", async () => {
    const ws = await scratchDir();
    const attacks = await buildAttacks(await scratchDir());
    // A port the host holds: a sandbox that can bind it gets EADDRINUSE, the host's port space.
    const port = 40000 + (process.pid % 20000);
    const host = await holdVsockPort(attacks, port);
    expect(host).toMatch(/^(listening|socket EAFNOSUPPORT)$/);
    const said: Record<string, string> = {};
    for (const [name, scope] of Object.entries(await everyScope())) {
      said[`helper ${name}`] = (await runAttack(attacks, ["vsock-bind", String(port)], scope, ws)).stdout;
      // bwrap without --seccomp, as upstream's callers spawn it: the bridge or the exec shim loads the filter.
      if (scope.networkBridge === "node") continue; // documented: the Node bridge cannot load a filter
      const target = await buildLocalProcessSandboxSpawnTarget({
        executable: attacks,
        args: ["vsock-bind", String(port)],
        cwd: ws,
        options: { workspaceDir: ws, ...scope },
      });
      onCleanup(() => target.cleanup?.() ?? Promise.resolve());
      said[`own spawn ${name}`] = (await spawnTarget(target)).stdout;
    }
    const refused = Object.fromEntries(Object.keys(said).map((run) => [run, "vsock EAFNOSUPPORT\n"]));
    expect(said).toEqual(refused);
  }, 120_000);

  it("pathname Unix sockets: the network-only scope reaches the host's outside /tmp and /run (by design), the workspace scope only the workspace's", async () => {
    const ws = await scratchDir();
    const attacks = await buildAttacks(await scratchDir());
    // Where host services listen: a directory of the host tree (an agent under a home directory,
    // a daemon under /var/lib), one under /run (masked), and the shared workspace.
    const hostTree = mkdtempSync("/var/tmp/pc-sbx-host-");
    const runDir = mkdtempSync("/run/pc-sbx-host-");
    onCleanup(async () => {
      rmSync(hostTree, { recursive: true, force: true });
      rmSync(runDir, { recursive: true, force: true });
    });
    const sockets = {
      hostTree: path.join(hostTree, "S.agent"),
      run: path.join(runDir, "daemon.sock"),
      workspace: path.join(ws, "dev.sock"),
    };
    const hits: string[] = [];
    for (const socketPath of Object.values(sockets)) {
      const open = new Set<Socket>();
      const server = createServer((socket) => {
        open.add(socket);
        socket.on("data", () => hits.push(socketPath));
        socket.on("error", () => {});
        socket.on("close", () => open.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(socketPath, resolve));
      onCleanup(async () => {
        for (const socket of open) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      });
    }
    const reached: Record<string, Record<string, string>> = {};
    for (const [name, scope] of Object.entries(await everyScope())) {
      const result = await runAttack(attacks, ["unix-connect", ...Object.values(sockets)], scope, ws);
      const lines = new Map(
        result.stdout
          .trim()
          .split("\n")
          .map((line) => line.split(" ") as [string, string]),
      );
      reached[name] = Object.fromEntries(
        Object.entries(sockets).map(([where, file]) => [where, lines.get(file)!]),
      );
    }
    const networkOnly = { hostTree: "ok", run: "ENOENT", workspace: "ok" };
    const workspace = { hostTree: "ENOENT", run: "ENOENT", workspace: "ok" };
    expect(reached).toEqual({
      networkOnlyDeny: networkOnly,
      networkOnlyAllowlist: networkOnly,
      workspaceDeny: workspace,
      workspaceAllowlistNode: workspace,
      workspaceOnly: workspace,
    });
    await expect.poll(() => hits.filter((hit) => hit === sockets.hostTree).length).toBe(2);
    expect(hits.filter((hit) => hit === sockets.run)).toEqual([]);
  }, 120_000);
});
