import { createServer } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { NetworkDecision } from "../src/proxy/index.js";
import { stopParsingWhen } from "../src/proxy/stop-parsing.js";
import { closeAll, proxyRequest, startHttpUpstream, startProxy } from "./proxy-support.js";
import { cleanupAll, runNodeInSandbox, SETTLE, scratchDir } from "./sandbox-support.js";

afterEach(async () => {
  await closeAll();
  await cleanupAll();
});

/**
 * Node's HTTP server parses a whole read (64 KiB) at once and makes a request and an answer
 * object for every pipelined request in it; answers the client never reads stay queued on
 * the connection, about 3 KiB of the host's heap each. A program that wrote tiny denied
 * requests on its connections and read nothing held over 1,000 of them per connection: 200
 * connections put 700 MiB on the proxy's heap, and a proxy process with a 256 MiB heap ended
 * with "JavaScript heap out of memory". Now a connection with `maxPipelinedRequests` unsent
 * answers is closed when it sends one more.
 */

/**
 * A client that writes `request` over and over and never reads; resolves once the proxy has
 * closed the connection (a write then fails).
 */
function floodUnread(socketPath: string, request: string): Promise<void> {
  const batch = Buffer.from(request.repeat(1000));
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.pause();
    socket.on("error", () => {});
    socket.once("close", () => resolve());
    const pump = () => {
      while (!socket.destroyed && socket.write(batch));
    };
    socket.on("drain", pump);
    socket.once("connect", pump);
  });
}

describe("pipelined requests whose answers are never read", () => {
  it("closes a connection past maxPipelinedRequests unsent answers, and frees what it queued", async () => {
    const upstream = await startHttpUpstream();
    const target = `127.0.0.1:${upstream.port}`;
    const decisions: NetworkDecision[] = [];
    const proxy = await startProxy({
      allowlist: [target],
      trustedUrls: [],
      onNetworkDecision: (decision) => decisions.push(decision),
    });
    const denied = "GET http://denied.test/ HTTP/1.1\r\nHost: denied.test\r\n\r\n";
    let closed = 0;
    const floods = [1, 2, 3, 4].map(() =>
      floodUnread(proxy.socketPath, denied).then(() => {
        closed += 1;
      }),
    );
    // On the old code every connection stayed open, over 1,000 answers queued on each.
    await expect.poll(() => closed, SETTLE).toBe(4);
    await Promise.all(floods);
    expect(decisions.filter((decision) => decision.reason === "pipeline_limit")).toHaveLength(4);
    expect((await proxyRequest(proxy.socketPath, `http://${target}/after`)).status).toBe(200);
  });

  it("bounds the requests Node answers 417 itself (an Expect other than 100-continue) the same way", async () => {
    const decisions: NetworkDecision[] = [];
    const proxy = await startProxy({
      allowlist: ["api.test"],
      trustedUrls: [],
      onNetworkDecision: (decision) => decisions.push(decision),
    });
    // Node answers these without a "request" event: on the old code nothing counted them.
    await floodUnread(
      proxy.socketPath,
      "GET http://api.test/ HTTP/1.1\r\nHost: api.test\r\nExpect: x\r\n\r\n",
    );
    expect(decisions).toEqual([{ decision: "deny", host: "", port: 0, reason: "pipeline_limit" }]);
  });

  it("Node parses no request of a read past the head that stops it", async () => {
    // The internals stop-parsing.ts relies on, checked on the Node that runs the suite.
    let requests = 0;
    const server = createServer((_request, response) => {
      requests += 1;
      response.end("x");
    });
    server.on("connection", (socket) => stopParsingWhen(socket, () => requests === 5 && !!socket.destroy()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve) => {
        const socket = connect(port, "127.0.0.1", () =>
          socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".repeat(1000)),
        );
        socket.on("error", () => {});
        socket.on("close", () => resolve());
        socket.resume();
      });
      expect(requests).toBe(5);
    } finally {
      server.close();
    }
  });

  it("answers every pipelined request up to the bound when the client reads", async () => {
    const upstream = await startHttpUpstream();
    const target = `127.0.0.1:${upstream.port}`;
    const proxy = await startProxy({
      allowlist: [target],
      trustedUrls: [],
      limits: { maxPipelinedRequests: 4 },
    });
    const requests = [1, 2, 3, 4]
      .map((i) => `GET http://${target}/${i} HTTP/1.1\r\nHost: ${target}\r\n\r\n`)
      .join("");
    const statuses = await new Promise<string[]>((resolve) => {
      const socket = connect(proxy.socketPath, () => socket.write(requests));
      let answers = "";
      const seen = () => answers.match(/HTTP\/1\.1 \d{3}/g) ?? [];
      socket.on("data", (chunk) => {
        answers += chunk;
        if (seen().length === 4) socket.destroy();
      });
      socket.on("close", () => resolve(seen()));
    });
    expect(statuses).toEqual(Array(4).fill("HTTP/1.1 200"));
  });

  it("holds from inside the sandbox: floods on the proxy's own socket are closed, and it serves the program after", async () => {
    const upstream = await startHttpUpstream();
    const target = `127.0.0.1:${upstream.port}`;
    const denied = "GET http://denied.test/ HTTP/1.1\r\nHost: denied.test\r\n\r\n";
    // The program finds proxy.sock in its bridge's argv and floods it on four connections
    // without reading, bypassing the bridge (whose buffers would take some answers); then
    // it sends one ordinary request through the bridge.
    const program = `
      const fs = require("node:fs");
      const net = require("node:net");
      const proxySocket = fs.readdirSync("/proc").filter((pid) => /^\\d+$/.test(pid))
        .flatMap((pid) => { try { return fs.readFileSync("/proc/" + pid + "/cmdline", "utf8").split("\\0"); } catch { return []; } })
        .find((arg) => arg.endsWith("/proxy.sock"));
      const batch = Buffer.from(${JSON.stringify(denied)}.repeat(1000));
      const flood = () => new Promise((resolve) => {
        const socket = net.connect(proxySocket);
        socket.pause();
        socket.on("error", () => {});
        socket.once("close", resolve);
        const pump = () => { while (!socket.destroyed && socket.write(batch)); };
        socket.on("drain", pump);
        socket.once("connect", pump);
      });
      Promise.all([flood(), flood(), flood(), flood()]).then(() => {
        console.log("closed");
        require("node:http").get({ host: "127.0.0.1", port: 31337, path: "http://${target}/after" }, (response) => {
          console.log(response.statusCode);
          response.resume();
        });
      });`;
    const decisions: NetworkDecision[] = [];
    // On the old code the floods were never closed: the run ended at its timeout.
    const { exitCode, stdout } = await runNodeInSandbox(program, {
      workspaceDir: scratchDir(),
      networkScope: "allowlist",
      networkAllowlist: [target],
      onNetworkDecision: (decision) => decisions.push(decision),
    });
    expect(exitCode).toBe(0);
    expect(stdout.trim().split("\n")).toEqual(["closed", "200"]);
    expect(decisions.filter((decision) => decision.reason === "pipeline_limit")).toHaveLength(4);
  });
});
