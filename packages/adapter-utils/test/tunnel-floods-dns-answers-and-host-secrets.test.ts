import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { NetworkDecision, NetworkResolver } from "../src/proxy/index.js";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import {
  closeAll,
  openTunnel,
  proxyRequest,
  rawExchange,
  startHttpUpstream,
  startProxy,
} from "./proxy-support.js";
import {
  canaryServer,
  cleanupAll,
  onCleanup,
  runNodeInSandbox,
  SETTLE,
  scratchDir,
} from "./sandbox-support.js";

afterEach(async () => {
  await closeAll();
  await cleanupAll();
});

/**
 * Attacks of a second red-team pass that held, kept as regression tests: tunnels flooded one
 * way while the other side never reads, hostile answers from the name resolver, the caller's
 * environment, and a second sandbox running at the same time. (The pass's hole, pipelined
 * answers a client never reads, is `pipelined-unread-answers.test.ts`.)
 */

/** A loopback server closed by `cleanupAll`, its connections destroyed. */
async function loopback(
  onSocket: (socket: Socket) => void,
  host = "127.0.0.1",
): Promise<{ port: number; open: () => number }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as { port: number }).port, open: () => sockets.size };
}

/** Writes `chunk` for as long as `socket` takes it, resuming on drain. */
function floodInto(socket: Socket, chunk: Buffer): void {
  const pump = () => {
    while (!socket.destroyed && socket.write(chunk));
  };
  socket.on("drain", pump);
  pump();
}

describe("tunnels flooded one way while the other side never reads", () => {
  it("stop relaying at the reader's pace, keep the proxy serving others, and all end with close()", async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    // Downloads: the target sends without end to a client that never reads.
    const { port: source, open: sourceOpen } = await loopback((socket) => floodInto(socket, chunk));
    // Uploads: the client sends without end to a target that never reads.
    const { port: sink } = await loopback((socket) => socket.pause());
    const upstream = await startHttpUpstream();
    const allowed = [`127.0.0.1:${source}`, `127.0.0.1:${sink}`, `127.0.0.1:${upstream.port}`];
    const proxy = await startProxy({ allowlist: allowed, trustedUrls: [] });
    const tunnels: Socket[] = [];
    for (let i = 0; i < 16; i += 1) {
      const down = await openTunnel(proxy.socketPath, `127.0.0.1:${source}`);
      down.socket.pause();
      const up = await openTunnel(proxy.socketPath, `127.0.0.1:${sink}`);
      floodInto(up.socket, chunk);
      tunnels.push(down.socket, up.socket);
    }
    for (const socket of tunnels) socket.on("error", () => {});
    // Every flooded tunnel has hit its reader's limit: the proxy relays no more to or from it.
    await expect
      .poll(
        () =>
          tunnels.filter((socket, i) => (i % 2 === 1 ? socket.writableNeedDrain : socket.readableLength > 0))
            .length,
        SETTLE,
      )
      .toBe(tunnels.length);
    const { bytesOut } = proxy.stats();
    // Sent to the 16 paused readers: what their socket buffers took, not what the target sent.
    expect(bytesOut).toBeLessThan(16 * 8 * 1024 * 1024);
    // A well-behaved client meanwhile, twice.
    for (const path of ["/a", "/b"]) {
      expect((await proxyRequest(proxy.socketPath, `http://127.0.0.1:${upstream.port}${path}`)).status).toBe(
        200,
      );
    }
    expect(proxy.stats().activeConnections).toBe(32);
    await proxy.close();
    // Both legs of every tunnel are gone: the flooding target's writes fail and it closes (the
    // sink never reads, so it would not see a FIN), and the proxy holds no sandbox socket.
    await expect.poll(() => sourceOpen(), SETTLE).toBe(0);
    expect(proxy.stats().activeConnections).toBe(0);
    for (const socket of tunnels) socket.destroy();
  });
});

describe("hostile answers from the resolver for an allowed name", () => {
  // Each spells a loopback, private or link-local address another way, or is no address at all.
  const ANSWERS: [string, ReturnType<NetworkResolver> extends Promise<infer R> ? R : never][] = [
    [
      "a public and a loopback address",
      [
        { address: "93.184.216.34", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ],
    ],
    ["IPv4-mapped loopback", [{ address: "::ffff:127.0.0.1", family: 6 }]],
    ["IPv4-mapped loopback in hex", [{ address: "::ffff:7f00:1", family: 6 }]],
    ["6to4 of loopback", [{ address: "2002:7f00:1::1", family: 6 }]],
    ["NAT64 of the metadata address", [{ address: "64:ff9b::a9fe:a9fe", family: 6 }]],
    ["IPv4-compatible loopback", [{ address: "::127.0.0.1", family: 6 }]],
    ["a zone id", [{ address: "fe80::1%lo", family: 6 }]],
    ["a short IPv4 form", [{ address: "127.1", family: 4 }]],
    ["an octal IPv4 form", [{ address: "0177.0.0.1", family: 4 }]],
    ["a decimal IPv4 form", [{ address: "2130706433", family: 4 }]],
    ["the unspecified address", [{ address: "0.0.0.0", family: 4 }]],
    ["IPv6 loopback in brackets", [{ address: "[::1]", family: 6 }]],
    ["a name", [{ address: "localhost", family: 4 }]],
    ["an address with a trailing space", [{ address: "127.0.0.1 ", family: 4 }]],
    ["nothing", []],
  ];

  it.each(ANSWERS)("%s: no CONNECT or plain request reaches loopback", async (_name, answer) => {
    const canary = await canaryServer();
    const decisions: NetworkDecision[] = [];
    const proxy = await startProxy({
      allowlist: [`api.test:${canary.port}`],
      trustedUrls: [],
      resolver: async () => answer,
      onNetworkDecision: (decision) => decisions.push(decision),
    });
    const connect = await rawExchange(proxy.socketPath, `CONNECT api.test:${canary.port} HTTP/1.1\r\n\r\n`, {
      end: true,
    });
    const plain = await proxyRequest(proxy.socketPath, `http://api.test:${canary.port}/`);
    expect(connect.response).not.toContain(" 200 ");
    expect([403, 502]).toContain(plain.status);
    expect(decisions.map((decision) => decision.decision)).toEqual(["deny", "deny"]);
    expect(canary.hits).toEqual([]);
  });
});

/** The scopes a caller runs programs in; the Node bridge is chosen by the environment. */
const SCOPES: Record<string, Omit<LocalProcessSandboxOptions, "workspaceDir">> = {
  workspace: { filesystemScope: "workspace" },
  workspaceDeny: { filesystemScope: "workspace", networkScope: "deny" },
  workspaceAllowlist: {
    filesystemScope: "workspace",
    networkScope: "allowlist",
    networkAllowlist: ["example.test"],
  },
  networkOnlyAllowlist: { networkScope: "allowlist", networkAllowlist: ["example.test"] },
  networkOnlyDeny: { networkScope: "deny" },
};

describe("the caller's secrets", () => {
  it("no variable of the caller's environment that the run was not given is readable anywhere in /proc", async () => {
    const secret = `paperclip-secret-${process.pid}-${Date.now()}`;
    const saved = {
      secret: process.env.PAPERCLIP_REDTEAM_SECRET,
      bridge: process.env.PAPERCLIP_SANDBOX_BRIDGE,
    };
    process.env.PAPERCLIP_REDTEAM_SECRET = secret;
    onCleanup(async () => {
      for (const [name, value] of [
        ["PAPERCLIP_REDTEAM_SECRET", saved.secret],
        ["PAPERCLIP_SANDBOX_BRIDGE", saved.bridge],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });
    // The program is given the secret reversed, so its own argv does not hold it.
    const program = `
      const fs = require("node:fs");
      const secret = process.env.REVERSED.split("").reverse().join("");
      const hits = [];
      for (const pid of fs.readdirSync("/proc").filter((name) => /^\\d+$/.test(name)))
        for (const file of ["environ", "cmdline"])
          try { if (fs.readFileSync("/proc/" + pid + "/" + file, "latin1").includes(secret)) hits.push(pid + "/" + file); } catch {}
      if (Object.values(process.env).some((value) => value.includes(secret))) hits.push("env");
      console.log(hits.join(" ") || "none");`;
    for (const [name, scope] of Object.entries(SCOPES)) {
      for (const bridge of ["native", "node"]) {
        process.env.PAPERCLIP_SANDBOX_BRIDGE = bridge;
        const result = await runNodeInSandbox(
          program,
          { workspaceDir: scratchDir(), ...scope },
          { env: { REVERSED: secret.split("").reverse().join("") } },
        );
        expect({ exitCode: result.exitCode, stdout: result.stdout.trim() }, `${name} ${bridge}`).toEqual({
          exitCode: 0,
          stdout: "none",
        });
      }
    }
  }, 120_000);

  it("a workspace sandbox reaches neither the proxy socket nor the workspace of another running at the same time", async () => {
    const canary = await canaryServer();
    const target = `127.0.0.1:${canary.port}`;
    const victimWs = scratchDir();
    let told = "";
    let tell: (info: string) => void = () => {};
    const victimInfo = new Promise<string>((resolve) => {
      tell = resolve;
    });
    // The victim names its proxy socket (from its bridge's argv), then waits for "done" in its workspace.
    const victim = runChildProcess(
      "victim",
      process.execPath,
      [
        "-e",
        `const fs = require("node:fs");
         const sock = fs.readdirSync("/proc").filter((p) => /^\\d+$/.test(p))
           .flatMap((p) => { try { return fs.readFileSync("/proc/" + p + "/cmdline", "utf8").split("\\0"); } catch { return []; } })
           .find((arg) => arg.endsWith("/proxy.sock"));
         console.log(JSON.stringify({ sock }));
         const wait = () => fs.existsSync("done") ? process.exit(0) : setTimeout(wait, 50);
         wait();`,
      ],
      {
        cwd: victimWs,
        env: {},
        timeoutSec: 60,
        graceSec: 1,
        onLog: async (stream, chunk) => {
          if (stream !== "stdout") return;
          told += chunk;
          if (told.includes("\n")) tell(told.trim());
        },
        localProcessSandbox: {
          command: "/usr/bin/bwrap",
          workspaceDir: victimWs,
          filesystemScope: "workspace",
          networkScope: "allowlist",
          networkAllowlist: [target],
        },
      },
    );
    onCleanup(async () => {
      const { writeFileSync } = await import("node:fs");
      writeFileSync(`${victimWs}/done`, "");
      await victim;
    });
    const { sock } = JSON.parse(await victimInfo) as { sock: string };
    expect(sock).toMatch(/\/proxy\.sock$/);
    // The attacker knows both paths and asks the victim's proxy for the victim's canary.
    const attacker = `
      const fs = require("node:fs");
      const net = require("node:net");
      const out = { workspace: fs.existsSync(${JSON.stringify(victimWs)}) ? fs.readdirSync(${JSON.stringify(victimWs)}).length : "absent" };
      const socket = net.connect(${JSON.stringify(sock)});
      socket.on("connect", () => socket.end("GET http://${target}/stolen HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n"));
      socket.on("error", (error) => { out.socket = error.code; console.log(JSON.stringify(out)); });
      socket.on("data", () => { out.socket = "answered"; });
      socket.on("close", () => { if (!out.socket) out.socket = "closed"; console.log(JSON.stringify(out)); });`;
    for (const scope of [SCOPES.workspace!, SCOPES.workspaceAllowlist!]) {
      const result = await runNodeInSandbox(attacker, { workspaceDir: scratchDir(), ...scope });
      const seen = JSON.parse(result.stdout.trim().split("\n")[0]!) as { workspace: unknown; socket: string };
      expect(seen.workspace, JSON.stringify(scope)).toBe("absent");
      expect(["ENOENT", "ECONNREFUSED"], JSON.stringify(scope)).toContain(seen.socket);
    }
    expect(canary.hits).toEqual([]);
  }, 90_000);
});
