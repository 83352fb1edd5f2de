import { createSocket } from "node:dgram";
import { copyFile, mkdir, symlink, writeFile } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { cleanupAll, onCleanup, packageDir, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

interface Attempt {
  escaped: boolean;
  detail: string;
}

/** Host-side listeners that must see nothing from the sandbox. */
async function hostTargets() {
  const canaryHits: string[] = [];
  const canary = createHttpServer((request, response) => {
    canaryHits.push(`${request.method} ${request.url}`);
    response.end("canary");
  });
  await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
  const allowed = createHttpServer((request, response) => {
    if (request.url === "/redirect") {
      response
        .writeHead(302, { Location: `http://127.0.0.1:${(canary.address() as AddressInfo).port}/` })
        .end();
    } else response.end("allowed");
  });
  await new Promise<void>((resolve) => allowed.listen(0, "127.0.0.1", resolve));
  const datagrams: string[] = [];
  const dnsServer = createSocket("udp4", (message) => datagrams.push(message.toString("latin1")));
  await new Promise<void>((resolve) => dnsServer.bind(0, "127.0.0.1", resolve));
  const unique = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const unixHits: string[] = [];
  const unixServers = [
    "/run/pc-escape-" + unique + ".sock",
    "/tmp/pc-escape-" + unique + ".sock",
    `\0pc-escape-${unique}`,
  ].map((socketPath) => {
    const server = createNetServer((socket) => {
      unixHits.push(socketPath);
      socket.destroy();
    });
    server.listen(socketPath);
    return server;
  });
  onCleanup(async () => {
    canary.closeAllConnections();
    allowed.closeAllConnections();
    await Promise.all([
      new Promise((resolve) => canary.close(resolve)),
      new Promise((resolve) => allowed.close(resolve)),
      new Promise((resolve) => dnsServer.close(() => resolve(undefined))),
      ...unixServers.map((server) => new Promise((resolve) => server.close(resolve))),
    ]);
  });
  return {
    canaryPort: (canary.address() as AddressInfo).port,
    allowedPort: (allowed.address() as AddressInfo).port,
    dnsPort: dnsServer.address().port,
    unique,
    canaryHits,
    datagrams,
    unixHits,
  };
}

async function runEscapeAttempts(filesystemScope: "workspace" | null): Promise<{
  results: Record<string, Attempt>;
  hits: { canary: string[]; datagrams: string[]; unix: string[] };
}> {
  const root = await scratchDir();
  const ws = path.join(root, "ws");
  const readOnlyDir = path.join(root, "ro");
  await mkdir(ws);
  await mkdir(readOnlyDir);
  const canaryFile = path.join(root, "canary.txt");
  await writeFile(canaryFile, "host-secret");
  await symlink(canaryFile, path.join(ws, "planted-link"));
  await copyFile(
    path.join(packageDir, "test", "fixtures", "escape-attempts.cjs"),
    path.join(ws, "attempts.cjs"),
  );
  const host = await hostTargets();
  const other = await buildLocalProcessSandboxSpawnTarget({
    executable: process.execPath,
    args: [],
    cwd: ws,
    options: { workspaceDir: ws, networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"] },
  });
  onCleanup(() => other.cleanup!());
  const candidates = await scratchDir("pc-sbx-cand-");
  const targets = {
    canaryFile,
    repoDir: path.dirname(path.dirname(packageDir)),
    readOnlyDir,
    hostPid: process.pid,
    otherSocket: other.args[other.args.indexOf("--") + 3],
    hostRunSocket: `/run/pc-escape-${host.unique}.sock`,
    hostTmpSocket: `/tmp/pc-escape-${host.unique}.sock`,
    abstractName: `pc-escape-${host.unique}`,
    canaryPort: host.canaryPort,
    allowedPort: host.allowedPort,
    dnsPort: host.dnsPort,
    dnsRulePort: host.canaryPort,
    bridgePath: "",
    nativeBridgePath: "",
    socketPath: "",
  };
  const result = await runChildProcess(
    "escape-suite",
    process.execPath,
    [
      "-e",
      // The per-run directory is known only once the run starts: the parent (the bridge) has the socket in its argv.
      `const t = JSON.parse(process.argv[1]);
       const dir = require("node:path").dirname(require("node:fs").readFileSync("/proc/" + process.ppid + "/cmdline", "utf8").split("\\0")[2]);
       t.socketPath = dir + "/proxy.sock"; t.bridgePath = dir + "/bridge.cjs"; t.nativeBridgePath = dir + "/paperclip-sandbox-bridge";
       process.argv = [process.argv[0], "attempts.cjs", JSON.stringify(t)]; require("./attempts.cjs");`,
      JSON.stringify(targets),
    ],
    {
      cwd: ws,
      env: { HTTP_PROXY: "http://corp-proxy.invalid:3128", ALL_PROXY: "socks5://corp-proxy.invalid:1080" },
      timeoutSec: 60,
      graceSec: 1,
      onLog: async () => {},
      localProcessSandbox: {
        workspaceDir: ws,
        filesystemScope,
        networkScope: "allowlist",
        networkAllowlist: [`127.0.0.1:${host.allowedPort}`, `localhost:${host.canaryPort}`],
        extraPaths: [{ path: readOnlyDir, access: "ro" }],
        proxySocketDirCandidates: [candidates],
      },
    },
  );
  expect(result.exitCode, result.stderr).toBe(0);
  if (process.env.PAPERCLIP_ESCAPE_REPORT) console.log(result.stdout);
  return {
    results: JSON.parse(result.stdout) as Record<string, Attempt>,
    hits: { canary: host.canaryHits, datagrams: host.datagrams, unix: host.unixHits },
  };
}

function escapes(results: Record<string, Attempt>, only?: (name: string) => boolean): Record<string, string> {
  return Object.fromEntries(
    Object.entries(results)
      .filter(([name, attempt]) => attempt.escaped && (!only || only(name)))
      .map(([name, attempt]) => [name, attempt.detail]),
  );
}

describe("escape suite inside the real sandbox", () => {
  it("workspace + allowlist scope: zero escapes, and the host saw nothing", async () => {
    const { results, hits } = await runEscapeAttempts("workspace");
    expect(Object.keys(results).length).toBeGreaterThanOrEqual(71);
    expect(escapes(results)).toEqual({});
    expect(hits).toEqual({ canary: [], datagrams: [], unix: [] });
    // The attempts were real: the proxy refused with its own codes, files were missing or read-only.
    expect(results.proxy_connectLocalhostByDns?.detail).toMatch(/^HTTP\/1\.1 403/);
    expect(results.proxy_originForm?.detail).toMatch(/^HTTP\/1\.1 400/);
    // The second request on a kept-alive connection reached the proxy and was refused there.
    expect(results.proxy_pipelinedSecond?.detail).toMatch(/^HTTP\/1\.1 200 .* \| HTTP\/1\.1 403 /);
    expect(results.proxy_backslashUserinfo?.detail).toMatch(/^HTTP\/1\.1 4\d\d/);
    expect(results.replaceBridge?.detail).toBe("EROFS");
    expect(results.replaceNativeBridge?.detail).toBe("EROFS");
    expect(results.unlinkNativeBridge?.detail).toMatch(/^(EROFS|EBUSY)$/);
    expect(results.writeReadOnlyExtra?.detail).toBe("EROFS");
    expect(results.readHostCanary?.detail).toBe("ENOENT");
    expect(results.capabilities?.detail).toMatch(/^0+$/);
    expect(results.writeCorePattern?.detail).toBe("EROFS");
    // The handoff's attack surface: the courier's socket is gone, the bridge is not dumpable,
    // and the bridge's own proxy socket applies the policy like proxy.sock.
    expect(results.courierSocket?.detail).toBe("ENOENT");
    expect(results.bridgeTunnelSocket?.detail).toBe("EACCES");
    expect(results.proxy_asTheBridge?.detail).toMatch(/^HTTP\/1\.1 403/);
  }, 60_000);

  it("network-only allowlist scope: no socket, network or proxy escape", async () => {
    const { results, hits } = await runEscapeAttempts(null);
    const networkOrSocket = (name: string) =>
      name.startsWith("proxy_") ||
      /Socket$|Proxy$|^direct|^dns|^udp|HostPid$|replace|NativeBridge$|hostProxyEnvLeak|^capabilities$|CorePattern|Sysfs|mount|mknod/i.test(
        name,
      );
    expect(escapes(results, networkOrSocket)).toEqual({});
    expect(hits).toEqual({ canary: [], datagrams: [], unix: [] });
    expect(results.writeCorePattern?.detail).toBe("EROFS");
    expect(results.writeSysfs?.detail).toMatch(/^(EROFS|ENOENT)$/);
  }, 60_000);
});
