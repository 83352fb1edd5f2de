import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { isAlive, processesWith } from "@paperclipai/test-support";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createNetworkProxyTempDir } from "../src/temp-dir/create-network-proxy-temp-dir.js";
import { OWNER_RECORD_NAME } from "../src/temp-dir/owner-record-location.js";
import { privateSocketRoots } from "../src/temp-dir/private-socket-roots.js";
import { removeProxyTempDir } from "../src/temp-dir/remove-proxy-temp-dir.js";
import { killProcessesUsing, sweepStaleProxyDirs } from "../src/temp-dir/sweep-stale-dirs.js";
import { builtEntry, cleanupAll, loopbackServer, onCleanup, SETTLE, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/** The directories in this uid's private socket roots whose owner record names `pid`. */
async function privateDirsOwnedBy(pid: number): Promise<string[]> {
  const owned: string[] = [];
  for (const root of privateSocketRoots(process.getuid?.() ?? -1)) {
    for (const name of await readdir(root).catch(() => [])) {
      const record = await readFile(path.join(root, name, OWNER_RECORD_NAME), "utf8").catch(() => "");
      if (record.includes(`"pid":${pid},`)) owned.push(path.join(root, name));
    }
  }
  return owned;
}

/** A separate host process running one allowlist sandbox whose per-run directory goes under `candidates`. */
async function startHost(ws: string, candidates: string) {
  const { port } = await loopbackServer("x");
  const script = `
    const { runChildProcess } = await import(${JSON.stringify(builtEntry)});
    await runChildProcess("crash", "/bin/sh", ["-c", "touch started; sleep 600"], {
      cwd: ${JSON.stringify(ws)}, env: {}, timeoutSec: 0, graceSec: 1, onLog: async () => {},
      localProcessSandbox: {
        workspaceDir: ${JSON.stringify(ws)}, filesystemScope: "workspace", networkScope: "allowlist",
        networkAllowlist: ["127.0.0.1:${port}"], proxySocketDirCandidates: [${JSON.stringify(candidates)}],
      },
    });`;
  const host = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
  const exited = new Promise((resolve) => host.on("exit", resolve));
  return { host, exited };
}

describe("when the host process dies", () => {
  it("mid-run: the sandbox dies with it and the next start sweeps its directory", async () => {
    const ws = await scratchDir();
    const candidates = await scratchDir("pc-sbx-cand-");
    const { host, exited } = await startHost(ws, candidates);
    await vi.waitFor(
      () => expect(existsSync(path.join(ws, "started")), "the sandboxed program").toBe(true),
      SETTLE,
    );
    const [runDir] = await readdir(candidates);
    host.kill("SIGKILL");
    await exited;
    await vi.waitFor(
      async () =>
        expect(processesWith(candidates).length === 0, "the sandbox to die with its host").toBe(true),
      SETTLE,
    );
    // The host never ran cleanup: its directory is left, until the next start removes it.
    expect(await readdir(candidates)).toEqual([runDir]);
    const fresh = await createNetworkProxyTempDir({ candidates: [candidates] });
    onCleanup(() => removeProxyTempDir(fresh));
    // The sweep runs in the background of that start.
    await vi.waitFor(
      async () => expect((await readdir(candidates)).length === 1, "the sweep").toBe(true),
      SETTLE,
    );
    expect(await readdir(candidates)).toEqual([path.basename(fresh)]);
    // Its socket directory in the private root (proxy and relay sockets) is left too, until a
    // start that sweeps the private root removes it.
    const socketDirs = await privateDirsOwnedBy(host.pid!);
    expect(socketDirs.length, "the dead host's socket directory").toBeGreaterThan(0);
    for (const root of privateSocketRoots(process.getuid?.() ?? -1)) await sweepStaleProxyDirs(root);
    expect(socketDirs.filter((dir) => existsSync(dir))).toEqual([]);
  }, 30_000);

  it("during sandbox setup: the next start also kills whatever bwrap left blocked", async () => {
    const ws = await scratchDir();
    const candidates = await scratchDir("pc-sbx-cand-");
    const { host, exited } = await startHost(ws, candidates);
    // bwrap exists (its argv names the directory) but the program may not run yet.
    await vi.waitFor(
      async () => expect(processesWith(candidates).length > 0, "bwrap to start").toBe(true),
      SETTLE,
    );
    host.kill("SIGKILL");
    await exited;
    const fresh = await createNetworkProxyTempDir({ candidates: [candidates] });
    onCleanup(() => removeProxyTempDir(fresh));
    await vi.waitFor(
      async () => expect(processesWith(candidates).length === 0, "no sandbox process left").toBe(true),
      SETTLE,
    );
    await vi.waitFor(
      async () => expect((await readdir(candidates)).length === 1, "the sweep").toBe(true),
      SETTLE,
    );
    expect(await readdir(candidates)).toEqual([path.basename(fresh)]);
    for (const root of privateSocketRoots(process.getuid?.() ?? -1)) await sweepStaleProxyDirs(root);
    expect(await privateDirsOwnedBy(host.pid!)).toEqual([]);
  }, 30_000);
});

describe("killProcessesUsing", () => {
  it("kills exactly the processes whose argv names the directory", async () => {
    const dir = await scratchDir("pc-sbx-kill-");
    // One process each, no shell: a killed `sh -c` would leave its `sleep` child behind.
    const idle = ["-e", "setInterval(() => {}, 1 << 30)"];
    const user = spawn(process.execPath, [...idle, path.join(dir, "bridge.cjs")]);
    const bystander = spawn(process.execPath, [...idle, `${dir}-other/bridge.cjs`]);
    try {
      await vi.waitFor(
        () => expect(isAlive(user.pid!) && isAlive(bystander.pid!), "the processes").toBe(true),
        SETTLE,
      );
      expect(await killProcessesUsing(dir)).toEqual([user.pid]);
      await vi.waitFor(() => expect(user.signalCode !== null, "the kill").toBe(true), SETTLE);
      expect(user.signalCode).toBe("SIGKILL");
      expect(bystander.signalCode).toBeNull();
    } finally {
      user.kill("SIGKILL");
      bystander.kill("SIGKILL");
    }
  });
});
