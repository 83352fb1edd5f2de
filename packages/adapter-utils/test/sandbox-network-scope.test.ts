import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { createServer as createNetServer } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import type { NetworkDecision } from "../src/proxy/index.js";
import { cleanupAll, loopbackServer, onCleanup, runNodeInSandbox, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/** A loopback TCP server echoing every byte, for CONNECT tunnels. */
async function echoServer(): Promise<number> {
  const server = createNetServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  return address.port;
}

/** Script helpers evaluated inside the sandbox (CommonJS, `node -e`). */
const CLIENT = `
const http = require("node:http");
const net = require("node:net");
const proxy = new URL(process.env.HTTP_PROXY || "http://127.0.0.1:31337");
function get(url) {
  return new Promise((resolve, reject) => {
    http.get({ hostname: proxy.hostname, port: proxy.port, path: url }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode, body, reason: res.headers["x-proxy-error"] || null }));
    }).on("error", reject);
  });
}
function tunnel(target, payload) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(proxy.port), proxy.hostname, () => socket.write("CONNECT " + target + " HTTP/1.1\\r\\nHost: " + target + "\\r\\n\\r\\n"));
    let data = Buffer.alloc(0);
    let established = false;
    socket.on("data", (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (!established) {
        const end = data.indexOf("\\r\\n\\r\\n");
        if (end === -1) return;
        const head = data.subarray(0, end).toString();
        data = data.subarray(end + 4);
        if (!head.startsWith("HTTP/1.1 200")) { socket.destroy(); return resolve({ head }); }
        established = true;
        socket.write(payload);
      }
      if (established && data.length >= payload.length) { socket.end(); resolve({ head: "200", echoed: data.equals(payload) }); }
    });
    socket.on("error", reject);
  });
}
function direct(port) {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1", () => { s.destroy(); resolve("connected"); });
    s.on("error", (e) => resolve(e.code));
  });
}
`;

describe("network deny scope with real bwrap", () => {
  it("blocks direct egress, even to the host's loopback", async () => {
    const ws = await scratchDir();
    const { port } = await loopbackServer("host-network");
    const result = await runNodeInSandbox(`${CLIENT} direct(${port}).then((r) => console.log(r));`, {
      workspaceDir: ws,
      networkScope: "deny",
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe("ECONNREFUSED");
  });

  it("gives a private /tmp and /run: no other run's proxy socket, no host sockets, but the workspace is there", async () => {
    const ws = await scratchDir();
    await writeFile(path.join(ws, "input.txt"), "workspace-data");
    const hostFile = path.join(await scratchDir(), "host-file.txt");
    await writeFile(hostFile, "host");
    const other = await buildLocalProcessSandboxSpawnTarget({
      executable: process.execPath,
      args: [],
      cwd: ws,
      options: { workspaceDir: ws, networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"] },
    });
    onCleanup(() => other.cleanup!());
    const otherSocket = other.args[other.args.indexOf("--") + 3]!;
    const runDir = `/run/pc-sbx-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    await mkdir(runDir, { recursive: true });
    onCleanup(() => import("node:fs/promises").then((fs) => fs.rm(runDir, { recursive: true, force: true })));
    const hostSocket = `${runDir}/host.sock`;
    const host = createNetServer((socket) => socket.end("host-daemon"));
    await new Promise<void>((resolve) => host.listen(hostSocket, resolve));
    onCleanup(() => new Promise<void>((resolve) => host.close(() => resolve())));

    const script = `
      const fs = require("node:fs");
      const net = require("node:net");
      const tryConnect = (p) => new Promise((resolve) => {
        const s = net.connect(p, () => { s.destroy(); resolve("connected"); });
        s.on("error", (e) => resolve(e.code));
      });
      (async () => {
        console.log(JSON.stringify({
          otherRun: await tryConnect(${JSON.stringify(otherSocket)}),
          hostDaemon: await tryConnect(${JSON.stringify(hostSocket)}),
          hostTmpFile: fs.existsSync(${JSON.stringify(hostFile)}),
          tmpEntries: fs.readdirSync("/tmp").filter((n) => !n.startsWith("paperclip-network-sandbox-") && !${JSON.stringify(ws)}.startsWith("/tmp/" + n)),
          runEntries: fs.readdirSync("/run"),
          workspace: fs.readFileSync("input.txt", "utf8"),
          devNull: (fs.writeFileSync("/dev/null", "x"), "ok"),
        }));
      })();`;
    const result = await runNodeInSandbox(script, { workspaceDir: ws, networkScope: "deny" });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      otherRun: "ENOENT",
      hostDaemon: "ENOENT",
      hostTmpFile: false,
      tmpEntries: [],
      runEntries: [],
      workspace: "workspace-data",
      devNull: "ok",
    });
  });
});

describe("network allowlist scope with real bwrap", () => {
  for (const [label, size, pieceBytes, networkBridge] of [
    ["in large chunks", 16 * 1024 * 1024, 0, "native"],
    ["in small chunks", 3 * 1024 * 1024, 1000, "native"],
    ["in large chunks", 16 * 1024 * 1024, 0, "node"],
    ["in small chunks", 3 * 1024 * 1024, 1000, "node"],
  ] as const) {
    it(`relays a download sent ${label} intact through the ${networkBridge} bridge to a client that half-closes and stalls`, async () => {
      const ws = await scratchDir();
      const payload = randomBytes(size);
      const source = createNetServer({ allowHalfOpen: true }, (socket) => {
        socket.on("error", () => {});
        if (!pieceBytes) {
          socket.end(payload);
          return;
        }
        let offset = 0;
        const next = () => {
          if (socket.destroyed) return;
          if (offset >= payload.length) return void socket.end();
          socket.write(payload.subarray(offset, offset + pieceBytes));
          offset += pieceBytes;
          setImmediate(next);
        };
        next();
      });
      await new Promise<void>((resolve) => source.listen(0, "127.0.0.1", resolve));
      onCleanup(() => new Promise<void>((resolve) => source.close(() => resolve())));
      const address = source.address();
      if (!address || typeof address === "string") throw new Error("no address");
      // The client sends its FIN right after the 200 and reads nothing for a while: the
      // bridge must flush everything the proxy sent before it tears the connection down.
      const script = `
      const net = require("node:net");
      const hash = require("node:crypto").createHash("sha256");
      const socket = net.connect(31337, "127.0.0.1", () => socket.write("CONNECT 127.0.0.1:${address.port} HTTP/1.1\\r\\n\\r\\n"));
      let head = Buffer.alloc(0);
      let bytes = 0;
      const onHead = (chunk) => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\\r\\n\\r\\n");
        if (end === -1) return;
        socket.off("data", onHead);
        socket.pause();
        socket.end();
        const rest = head.subarray(end + 4);
        hash.update(rest);
        bytes += rest.length;
        setTimeout(() => {
          socket.on("data", (c) => { hash.update(c); bytes += c.length; });
          socket.resume();
        }, 300);
      };
      socket.on("data", onHead);
      socket.on("close", () => console.log(JSON.stringify({ status: head.subarray(0, 12).toString(), bytes, sha256: hash.digest("hex") })));`;
      const result = await runNodeInSandbox(script, {
        workspaceDir: ws,
        networkScope: "allowlist",
        networkAllowlist: [`127.0.0.1:${address.port}`],
        networkBridge,
      });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        status: "HTTP/1.1 200",
        bytes: payload.length,
        sha256: createHash("sha256").update(payload).digest("hex"),
      });
    });
  }

  it("serves both kinds of Node client: one that honours NODE_USE_ENV_PROXY and one that proxies on its own", async () => {
    const ws = await scratchDir();
    const { port } = await loopbackServer("allowed-response");
    const script = `${CLIENT}
      const settle = (promise) => promise.then((value) => value, (e) => (e.cause || e).code || String(e));
      (async () => {
        const target = "http://127.0.0.1:${port}/canary";
        console.log(JSON.stringify({
          selfProxied: await settle(get(target)),
          envHttp: await settle(new Promise((resolve, reject) => {
            http.get(target, (res) => { let body = ""; res.on("data", (c) => (body += c)); res.on("end", () => resolve(body)); }).on("error", reject);
          })),
          envFetch: await settle(fetch(target).then((res) => res.text())),
        }));
      })().catch((e) => { console.error(e); process.exit(7); });`;
    const result = await runNodeInSandbox(script, {
      workspaceDir: ws,
      networkScope: "allowlist",
      networkAllowlist: [`127.0.0.1:${port}`],
    });
    expect(result.exitCode, result.stderr).toBe(0);
    // Node 22.21+ and 24.5+ route both http and fetch through the env proxy; older Node
    // connects directly, which the sandbox's empty network refuses.
    const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
    const honoursEnvProxy = major > 24 || (major === 24 && minor >= 5) || (major === 22 && minor >= 21);
    const viaEnv = honoursEnvProxy ? "allowed-response" : "ECONNREFUSED";
    expect(JSON.parse(result.stdout)).toEqual({
      selfProxied: { status: 200, body: "allowed-response", reason: null },
      envHttp: viaEnv,
      envFetch: viaEnv,
    });
  });

  for (const filesystemScope of ["workspace", null] as const) {
    const label = filesystemScope ? "with the workspace scope" : "network-only";
    it(`allows listed targets over HTTP and CONNECT, denies others, reports each decision (${label})`, async () => {
      const ws = await scratchDir();
      const candidates = await scratchDir("pc-sbx-cand-");
      const { port } = await loopbackServer("allowed-response");
      const echo = await echoServer();
      const { port: otherPort } = await loopbackServer("never");
      const decisions: NetworkDecision[] = [];
      const script = `${CLIENT}
        (async () => {
          const payload = require("node:crypto").randomBytes(256 * 1024);
          console.log(JSON.stringify({
            allowed: await get("http://127.0.0.1:${port}/canary"),
            deniedHost: await get("http://example.com/"),
            deniedPort: await get("http://127.0.0.1:${otherPort}/"),
            tunnel: await tunnel("127.0.0.1:${echo}", payload),
            tunnelDenied: (await tunnel("example.com:443", payload)).head.split("\\r\\n")[0],
            direct: await direct(${port}),
            useEnvProxy: process.env.NODE_USE_ENV_PROXY,
          }));
        })().catch((e) => { console.error(e); process.exit(7); });`;
      const result = await runNodeInSandbox(script, {
        workspaceDir: ws,
        filesystemScope,
        networkScope: "allowlist",
        networkAllowlist: [`127.0.0.1:${port}`, `127.0.0.1:${echo}`],
        onNetworkDecision: (decision) => decisions.push(decision),
        proxySocketDirCandidates: [candidates],
      });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        allowed: { status: 200, body: "allowed-response", reason: null },
        deniedHost: {
          status: 403,
          body: '{"error":{"code":"network_target_denied","message":"Network target denied by Paperclip sandbox policy."}}\n',
          reason: "not_allowlisted",
        },
        deniedPort: expect.objectContaining({ status: 403 }),
        tunnel: { head: "200", echoed: true },
        tunnelDenied: "HTTP/1.1 403 Forbidden",
        direct: "ECONNREFUSED",
        useEnvProxy: "1",
      });
      expect(decisions).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ decision: "allow", host: "127.0.0.1", port }),
          expect.objectContaining({ decision: "deny", host: "example.com", port: 80 }),
          expect.objectContaining({ decision: "allow", host: "127.0.0.1", port: echo }),
          expect.objectContaining({ decision: "deny", host: "example.com", port: 443 }),
        ]),
      );
      // cleanup ran: the proxy directory (socket, bridge, masks) is gone.
      expect(await readdir(candidates)).toEqual([]);
    });
  }
});
