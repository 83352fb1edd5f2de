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

/**
 * A host process holding a free vsock port until the test ends; what it said: "listening <port>"
 * where the host has vsock, "socket EAFNOSUPPORT" (or another failed step) where it has none.
 */
async function holdVsockPort(attacks: string): Promise<string> {
  const holder = spawn(attacks, ["vsock-listen"], { stdio: ["pipe", "pipe", "inherit"] });
  // Listened for from the start, so an exit (or a kill, or a failed spawn) is never missed.
  const exited = new Promise<void>((resolve) => {
    holder.once("close", () => resolve());
    holder.once("error", () => resolve());
  });
  holder.stdin?.on("error", () => {});
  onCleanup(async () => {
    holder.stdin?.end();
    await exited;
  });
  return new Promise((resolve, reject) => {
    let said = "";
    holder.stdout?.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("\n")) resolve(said.trim());
    });
    holder.once("error", reject);
    // Exited (or was killed) before a whole line: what it said, if anything, or why it stopped.
    holder.once("close", (code, signal) =>
      said.includes("\n") ? undefined : reject(new Error(`vsock-listen exited (${signal ?? code}): ${said}`)),
    );
  });
}

describe("sockets no network namespace separates", () => {
  it("no program creates an AF_VSOCK socket, whose ports and peers (the hypervisor) are the host's, nor an AF_PACKET one, in any scope", async () => {
    const ws = await scratchDir();
    const attacks = await buildAttacks(await scratchDir());
    // A port the host holds: a sandbox that can bind it gets EADDRINUSE, the host's port space.
    // Without vsock on the host the kernel refuses the socket anyway; then the AF_PACKET line
    // is what tells the filter from the kernel (the kernel alone: EPERM, no CAP_NET_RAW).
    const host = await holdVsockPort(attacks);
    expect(host).toMatch(/^(listening \d+|socket EAFNOSUPPORT)$/);
    const port = host.startsWith("listening ") ? host.slice("listening ".length) : "1024";
    const said: Record<string, string> = {};
    for (const [name, scope] of Object.entries(await everyScope())) {
      said[`helper ${name}`] = (await runAttack(attacks, ["vsock-bind", port], scope, ws)).stdout;
      // bwrap without --seccomp, as upstream's callers spawn it: the bridge or the exec shim loads the filter.
      if (scope.networkBridge === "node") continue; // documented: the Node bridge cannot load a filter
      const target = await buildLocalProcessSandboxSpawnTarget({
        executable: attacks,
        args: ["vsock-bind", port],
        cwd: ws,
        options: { workspaceDir: ws, ...scope },
      });
      onCleanup(() => target.cleanup?.() ?? Promise.resolve());
      said[`own spawn ${name}`] = (await spawnTarget(target)).stdout;
    }
    const refused = Object.fromEntries(
      Object.keys(said).map((run) => [run, "vsock EAFNOSUPPORT\npacket EAFNOSUPPORT\n"]),
    );
    expect(said).toEqual(refused);
  }, 120_000);

  it("Unix sockets: the network-only scope reaches the host's outside /tmp and /run (by design), the workspace scope only the workspace's, and the host's abstract ones without a network scope (by design)", async () => {
    const ws = await scratchDir();
    const attacks = await buildAttacks(await scratchDir());
    // Where host services listen: a directory of the host tree (an agent under a home directory,
    // a daemon under /var/lib), one under /run (masked), and the shared workspace.
    // /run is root's: the integration tests run as root (test/preconditions.ts refuses otherwise).
    const hostDir = (prefix: string) => {
      const dir = mkdtempSync(prefix);
      onCleanup(async () => rmSync(dir, { recursive: true, force: true }));
      return dir;
    };
    const hostTree = hostDir("/var/tmp/pc-sbx-host-");
    const runDir = hostDir("/run/pc-sbx-host-");
    const sockets = {
      hostTree: path.join(hostTree, "S.agent"),
      run: path.join(runDir, "daemon.sock"),
      workspace: path.join(ws, "dev.sock"),
      // An abstract socket (X11's "@/tmp/.X11-unix/X0", a D-Bus bus at "unix:abstract=…"):
      // it lives in a network namespace, so only a sandbox without a network scope shares it.
      abstract: `@pc-sbx-host-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
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
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(socketPath.replace(/^@/, "\0"), () => {
          server.off("error", reject);
          resolve();
        });
      });
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
    const networkOnly = { hostTree: "ok", run: "ENOENT", workspace: "ok", abstract: "ECONNREFUSED" };
    const workspace = { hostTree: "ENOENT", run: "ENOENT", workspace: "ok", abstract: "ECONNREFUSED" };
    expect(reached).toEqual({
      networkOnlyDeny: networkOnly,
      networkOnlyAllowlist: networkOnly,
      workspaceDeny: workspace,
      workspaceAllowlistNode: workspace,
      workspaceOnly: { ...workspace, abstract: "ok" },
    });
    // The sockets' accepts reach this process's event loop eventually: vitest's 1 s default is no bound.
    await expect
      .poll(() => hits.filter((hit) => hit === sockets.hostTree).length, { timeout: 15_000 })
      .toBe(2);
    expect(hits.filter((hit) => hit === sockets.run)).toEqual([]);
    await expect
      .poll(() => hits.filter((hit) => hit === sockets.abstract).length, { timeout: 15_000 })
      .toBe(1);
  }, 120_000);
});
