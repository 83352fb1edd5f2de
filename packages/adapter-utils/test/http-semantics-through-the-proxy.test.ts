import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { NetworkDecision } from "../src/proxy/index.js";
import { closeAll, rawExchange, startHttpUpstream, startProxy } from "./proxy-support.js";
import { cleanupAll, rawLoopbackServer } from "./sandbox-support.js";

afterEach(async () => {
  await closeAll();
  await cleanupAll();
});

/**
 * HTTP/1.1 features that put more than one message, or a message in more than one piece, on
 * one proxy connection: the interim `100 Continue`, HTTP/1.0 keep-alive, pipelining, a Host
 * header that disagrees with the absolute-form target, and body framings that disagree. Each
 * request must be judged on its own target: the denied host (a loopback port the allowlist
 * does not name) counts every TCP connection it accepts, and must accept none, while the
 * proxy reports a denial for each request that named it.
 */

interface Setup {
  a: number;
  c: number;
  socketPath: string;
  canaryConnections: () => number;
  decisions: NetworkDecision[];
  allowedUrls: () => string[];
}

async function setup(): Promise<Setup> {
  let accepted = 0;
  const c = await rawLoopbackServer((socket) => {
    accepted += 1;
    socket.end("HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\ncanary");
  });
  const allowed = await startHttpUpstream();
  const decisions: NetworkDecision[] = [];
  const proxy = await startProxy({
    allowlist: [`127.0.0.1:${allowed.port}`],
    trustedUrls: [],
    onNetworkDecision: (decision) => decisions.push(decision),
  });
  return {
    a: allowed.port,
    c,
    socketPath: proxy.socketPath,
    canaryConnections: () => accepted,
    decisions,
    allowedUrls: () => allowed.received.map((request) => request.url),
  };
}

function deniedFor(s: Setup): NetworkDecision[] {
  return s.decisions.filter((d) => d.port === s.c);
}

/**
 * Statuses of every response in `raw`, interim ones included, in order. Not anchored to a line
 * start: the allowed host's body has no final newline, so the next status line follows it directly.
 */
function statuses(raw: string): string[] {
  return (raw.match(/HTTP\/1\.[01] \d{3} /g) ?? []).map((line) => line.slice(-4, -1));
}

/** Opens a connection to the proxy and collects what it answers; `waitFor` resolves once `raw` matches. */
function conversation(socketPath: string): {
  socket: Socket;
  raw: () => string;
  waitFor: (pattern: RegExp) => Promise<void>;
  closed: Promise<void>;
} {
  const socket = connect(socketPath);
  let raw = "";
  const waiters: (() => void)[] = [];
  socket.on("error", () => {});
  socket.on("data", (chunk: Buffer) => {
    raw += chunk.toString("latin1");
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  const waitFor = async (pattern: RegExp) => {
    while (!pattern.test(raw)) {
      if (socket.destroyed) throw new Error(`closed before ${pattern}: ${JSON.stringify(raw)}`);
      await Promise.race([new Promise<void>((wake) => waiters.push(wake)), closed]);
    }
  };
  return { socket, raw: () => raw, waitFor, closed };
}

describe("Expect: 100-continue through the proxy", () => {
  it("an allowed request gets its interim 100, then sends its body to the allowed host", async () => {
    const s = await setup();
    const talk = conversation(s.socketPath);
    talk.socket.write(
      `POST http://127.0.0.1:${s.a}/continue HTTP/1.1\r\nHost: 127.0.0.1:${s.a}\r\n` +
        "Expect: 100-continue\r\nContent-Length: 5\r\nConnection: close\r\n\r\n",
    );
    // A client waits for the interim answer before its body: a proxy that never sent it deadlocks here.
    await talk.waitFor(/^HTTP\/1\.1 100 /);
    talk.socket.write("hello");
    await talk.closed;
    expect(statuses(talk.raw())).toEqual(["100", "200"]);
    expect(s.allowedUrls()).toEqual(["/continue"]);
  });

  it("a denied request is refused before any body, and a body holding a second request goes nowhere", async () => {
    const s = await setup();
    const smuggled = `GET http://127.0.0.1:${s.c}/ HTTP/1.1\r\nHost: 127.0.0.1:${s.c}\r\n\r\n`;
    const talk = conversation(s.socketPath);
    talk.socket.write(
      `POST http://127.0.0.1:${s.c}/continue HTTP/1.1\r\nHost: 127.0.0.1:${s.c}\r\n` +
        `Expect: 100-continue\r\nContent-Length: ${smuggled.length}\r\n\r\n`,
    );
    // The final answer comes without an interim 100: the client is never invited to send its body.
    await talk.waitFor(/network_target_denied/);
    expect(statuses(talk.raw())).toEqual(["403"]);
    // A client that sends its body anyway, with another request for the denied host in it.
    talk.socket.end(smuggled);
    await talk.closed;
    expect(statuses(talk.raw())).toEqual(["403"]);
    expect(s.canaryConnections()).toBe(0);
    expect(deniedFor(s).map((d) => [d.decision, d.reason])).toEqual([["deny", "port_not_allowed"]]);
  });

  it("an allowed request whose body is a request for the denied host delivers it as a body, never as a request", async () => {
    const s = await setup();
    const smuggled = `GET http://127.0.0.1:${s.c}/ HTTP/1.1\r\nHost: 127.0.0.1:${s.c}\r\n\r\n`;
    const talk = conversation(s.socketPath);
    talk.socket.write(
      `POST http://127.0.0.1:${s.a}/carrier HTTP/1.1\r\nHost: 127.0.0.1:${s.a}\r\n` +
        `Expect: 100-continue\r\nContent-Length: ${smuggled.length}\r\n\r\n`,
    );
    await talk.waitFor(/^HTTP\/1\.1 100 /);
    talk.socket.end(smuggled);
    await talk.closed;
    expect(s.allowedUrls()).toEqual(["/carrier"]);
    expect(s.canaryConnections()).toBe(0);
    expect(deniedFor(s)).toEqual([]);
  });
});

describe("more than one request on one connection", () => {
  it("HTTP/1.0 keep-alive: a second request for the denied host is judged on its own", async () => {
    const s = await setup();
    const talk = conversation(s.socketPath);
    talk.socket.write(
      `GET http://127.0.0.1:${s.a}/first HTTP/1.0\r\nHost: 127.0.0.1:${s.a}\r\nConnection: keep-alive\r\n\r\n`,
    );
    await talk.waitFor(/allowed-response/);
    talk.socket.write(
      `GET http://127.0.0.1:${s.c}/second HTTP/1.0\r\nHost: 127.0.0.1:${s.a}\r\nConnection: keep-alive\r\n\r\n`,
    );
    await talk.waitFor(/network_target_denied/);
    talk.socket.end();
    await talk.closed;
    expect(statuses(talk.raw())).toEqual(["200", "403"]);
    expect(s.allowedUrls()).toEqual(["/first"]);
    expect(s.canaryConnections()).toBe(0);
    expect(deniedFor(s).map((d) => d.decision)).toEqual(["deny"]);
  });

  it("pipelined requests naming different hosts are each judged by their own target", async () => {
    const s = await setup();
    const line = (port: number, path: string, host: number) =>
      `GET http://127.0.0.1:${port}${path} HTTP/1.1\r\nHost: 127.0.0.1:${host}\r\n\r\n`;
    const { response } = await rawExchange(
      s.socketPath,
      line(s.a, "/one", s.a) + line(s.c, "/two", s.a) + line(s.a, "/three", s.c) + line(s.c, "/four", s.c),
    );
    expect(statuses(response)).toEqual(["200", "403", "200", "403"]);
    expect(s.allowedUrls()).toEqual(["/one", "/three"]);
    expect(s.canaryConnections()).toBe(0);
    expect(deniedFor(s).map((d) => d.decision)).toEqual(["deny", "deny"]);
  });

  it("the absolute-form target decides, whatever the Host header says, either way round", async () => {
    const s = await setup();
    const toDenied = await rawExchange(
      s.socketPath,
      `GET http://127.0.0.1:${s.c}/ HTTP/1.1\r\nHost: 127.0.0.1:${s.a}\r\nConnection: close\r\n\r\n`,
    );
    expect(statuses(toDenied.response)).toEqual(["403"]);
    const toAllowed = await rawExchange(
      s.socketPath,
      `GET http://127.0.0.1:${s.a}/named HTTP/1.1\r\nHost: 127.0.0.1:${s.c}\r\nConnection: close\r\n\r\n`,
    );
    expect(statuses(toAllowed.response)).toEqual(["200"]);
    expect(s.allowedUrls()).toEqual(["/named"]);
    expect(s.canaryConnections()).toBe(0);
  });
});

describe("body framings that disagree", () => {
  it("never turn a body into a request for the denied host", async () => {
    const s = await setup();
    const smuggled = `GET http://127.0.0.1:${s.c}/smuggled HTTP/1.1\r\nHost: 127.0.0.1:${s.c}\r\n\r\n`;
    const head = `POST http://127.0.0.1:${s.a}/framed HTTP/1.1\r\nHost: 127.0.0.1:${s.a}\r\n`;
    const cases: [string, string][] = [
      [
        "Content-Length then chunked",
        `${head}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`,
      ],
      [
        "chunked then Content-Length",
        `${head}Transfer-Encoding: chunked\r\nContent-Length: 80\r\n\r\n0\r\n\r\n${smuggled}`,
      ],
      [
        "chunked twice",
        `${head}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`,
      ],
      ["chunked not last", `${head}Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n${smuggled}`],
      [
        "a space before the colon",
        `${head}Transfer-Encoding : chunked\r\nContent-Length: 0\r\n\r\n0\r\n\r\n${smuggled}`,
      ],
      ["a folded Transfer-Encoding", `${head}Transfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n${smuggled}`],
      [
        "a chunk size with an extension hiding a request",
        `${head}Transfer-Encoding: chunked\r\n\r\n0;x=${smuggled.replace(/\r\n/g, "_")}\r\n\r\n${smuggled}`,
      ],
      ["a short Content-Length", `${head}Content-Length: 1\r\n\r\nx${smuggled}`],
      ["a negative Content-Length", `${head}Content-Length: -1\r\n\r\n${smuggled}`],
      ["a Content-Length with a sign", `${head}Content-Length: +5\r\n\r\nhello${smuggled}`],
    ];
    for (const [name, payload] of cases) {
      const { response } = await rawExchange(s.socketPath, payload);
      // Whatever the proxy made of it, no answer is the denied host's.
      expect(response, name).not.toMatch(/canary/);
      expect(s.canaryConnections(), name).toBe(0);
    }
    // A request the proxy did parse out of a body was judged: every one naming the denied host was refused.
    expect(deniedFor(s).every((d) => d.decision === "deny")).toBe(true);
    expect(s.allowedUrls().every((url) => url === "/framed")).toBe(true);
  });
});
