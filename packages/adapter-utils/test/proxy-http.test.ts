import { existsSync } from "node:fs";
import { createServer, request } from "node:http";
import { connect } from "node:net";
import { PaperclipError } from "@paperclipai/errors";
import { refusedPortForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import {
  type NetworkDecision,
  type NetworkResolver,
  startSandboxNetworkProxy,
  writeProxyError,
} from "../src/proxy/index.js";
import {
  closeAll,
  headerPairs,
  proxyRequest,
  rawExchange,
  startHttpUpstream,
  startProxy,
  tempSocketPath,
} from "./proxy-support.js";

afterEach(closeAll);

const DENIED_BODY =
  '{"error":{"code":"network_target_denied","message":"Network target denied by Paperclip sandbox policy."}}\n';

function resolverFrom(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolver: NetworkResolver = async (hostname) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }) as const);
  };
  return { resolver, asked };
}

describe("plain HTTP through the sandbox proxy", () => {
  it("forwards an allowed absolute-form request and passes the response through unchanged", async () => {
    const upstream = await startHttpUpstream((_req, res) => res.end("allowed-response"));
    const proxy = await startProxy({ allowlist: [`127.0.0.1:${upstream.port}`], trustedUrls: [] });
    const response = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${upstream.port}/canary?q=1`);
    expect(response.status).toBe(200);
    expect(response.body).toBe("allowed-response");
    expect(response.headers["content-type"]).toBeUndefined();
    expect(response.headers["x-proxy-error"]).toBeUndefined();
    expect(headerPairs(response.rawHeaders).filter(([name]) => name.toLowerCase() === "date")).toHaveLength(
      1,
    );
    expect(upstream.received).toHaveLength(1);
    expect(upstream.received[0]).toMatchObject({ method: "GET", url: "/canary?q=1" });
    expect(headerPairs(upstream.received[0]!.rawHeaders)).toContainEqual([
      "Host",
      `127.0.0.1:${upstream.port}`,
    ]);
  });

  it("answers a client that half-closes after its request, and takes the target from the URL without a Host", async () => {
    const upstream = await startHttpUpstream();
    const proxy = await startProxy({ allowlist: [`127.0.0.1:${upstream.port}`], trustedUrls: [] });
    const result = await rawExchange(
      proxy.socketPath,
      `GET http://127.0.0.1:${upstream.port}/no-host HTTP/1.1\r\n\r\n`,
    );
    expect(result.timedOut).toBe(false);
    expect(result.response).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(result.response.endsWith("allowed-response")).toBe(true);
    expect(headerPairs(upstream.received[0]!.rawHeaders)).toContainEqual([
      "Host",
      `127.0.0.1:${upstream.port}`,
    ]);
  });

  it("forwards to an IPv6 literal target matched canonically", async () => {
    const upstream = await startHttpUpstream((_req, res) => res.end("v6-response"), "::1");
    const proxy = await startProxy({ allowlist: [`[0:0:0:0:0:0:0:1]:${upstream.port}`], trustedUrls: [] });
    const response = await proxyRequest(proxy.socketPath, `http://[::1]:${upstream.port}/six`);
    expect(response).toMatchObject({ status: 200, body: "v6-response" });
    expect(headerPairs(upstream.received[0]!.rawHeaders)).toContainEqual(["Host", `[::1]:${upstream.port}`]);
  });

  it("forwards request bodies, fixed-length and chunked, and keeps duplicate headers", async () => {
    const upstream = await startHttpUpstream((_req, res, body) => {
      res.writeHead(
        201,
        "Made",
        [
          ["X-Dup", "a"],
          ["X-Dup", "b"],
          ["Content-Type", "text/plain"],
        ].flat(),
      );
      res.end(`got:${body}`);
    });
    const proxy = await startProxy({ allowlist: [`127.0.0.1:${upstream.port}`], trustedUrls: [] });
    const url = `http://127.0.0.1:${upstream.port}/upload`;
    const fixed = await proxyRequest(proxy.socketPath, url, {
      method: "POST",
      body: "x".repeat(70_000),
      headers: { "content-length": "70000" },
    });
    expect(fixed.status).toBe(201);
    expect(fixed.statusMessage).toBe("Made");
    expect(fixed.body).toBe(`got:${"x".repeat(70_000)}`);
    expect(headerPairs(fixed.rawHeaders).filter(([n]) => n === "X-Dup")).toEqual([
      ["X-Dup", "a"],
      ["X-Dup", "b"],
    ]);
    const chunked = await proxyRequest(proxy.socketPath, url, {
      method: "PUT",
      body: "chunky",
      headers: { "transfer-encoding": "chunked" },
    });
    expect(chunked.body).toBe("got:chunky");
    expect(upstream.received.map((r) => r.method)).toEqual(["POST", "PUT"]);
  });

  it("passes redirects through without following them", async () => {
    const upstream = await startHttpUpstream((_req, res) => {
      res.writeHead(302, { Location: "http://169.254.169.254/latest/meta-data/" });
      res.end();
    });
    const proxy = await startProxy({ allowlist: [`127.0.0.1:${upstream.port}`], trustedUrls: [] });
    const response = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${upstream.port}/r`);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe("http://169.254.169.254/latest/meta-data/");
    expect(upstream.received).toHaveLength(1);
  });

  it("answers origin-form with 400 invalid_request_url", async () => {
    const proxy = await startProxy({ allowlist: ["api.test"], trustedUrls: [] });
    const response = await proxyRequest(proxy.socketPath, "/relative", { headers: { host: "api.test" } });
    const body =
      '{"error":{"code":"invalid_request_url","message":"Paperclip sandbox proxy requires an absolute request URL."}}\n';
    expect(response).toMatchObject({ status: 400, body });
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(response.headers["x-proxy-error"]).toBe("invalid_request_url");
  });

  it("answers an https:// request-target with 400 https_requires_connect", async () => {
    const proxy = await startProxy({ allowlist: ["api.test"], trustedUrls: [] });
    const response = await proxyRequest(proxy.socketPath, "https://api.test/", {
      headers: { host: "api.test" },
    });
    expect(response).toMatchObject({
      status: 400,
      body: '{"error":{"code":"https_requires_connect","message":"HTTPS targets must use CONNECT through the Paperclip sandbox proxy."}}\n',
    });
    expect(response.headers["x-proxy-error"]).toBe("https_requires_connect");
  });

  it("judges an IDN host by its own canonical form on every Node (invalid Punycode is denied, never resolved)", async () => {
    const { resolver, asked } = resolverFrom({});
    const proxy = await startProxy({ allowlist: ["api.test"], trustedUrls: [], resolver });
    const plain = await proxyRequest(proxy.socketPath, "http://xn--zz.com/", {
      headers: { host: "xn--zz.com" },
    });
    expect(plain).toMatchObject({ status: 403, body: DENIED_BODY });
    expect(plain.headers["x-proxy-error"]).toBe("invalid_target");
    const tls = await proxyRequest(proxy.socketPath, "https://xn--zz.com/", {
      headers: { host: "xn--zz.com" },
    });
    expect(tls.status).toBe(400);
    expect(tls.headers["x-proxy-error"]).toBe("https_requires_connect");
    expect(asked).toEqual([]);
  });

  it("denies hosts and ports outside the allowlist with upstream's 403 and never resolves them", async () => {
    const { resolver, asked } = resolverFrom({});
    const proxy = await startProxy({ allowlist: ["api.test"], trustedUrls: [], resolver });
    const host = await proxyRequest(proxy.socketPath, "http://example.com/", {
      headers: { host: "example.com" },
    });
    expect(host).toMatchObject({ status: 403, body: DENIED_BODY });
    expect(host.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(host.headers["x-proxy-error"]).toBe("not_allowlisted");
    const port = await proxyRequest(proxy.socketPath, "http://api.test:8080/", {
      headers: { host: "api.test:8080" },
    });
    expect(port).toMatchObject({ status: 403, body: DENIED_BODY });
    expect(port.headers["x-proxy-error"]).toBe("port_not_allowed");
    expect(asked).toEqual([]);
  });

  it("refuses an allowlisted hostname that resolves to loopback, without connecting", async () => {
    const upstream = await startHttpUpstream();
    const { resolver, asked } = resolverFrom({
      "internal.test": ["127.0.0.1"],
      "meta.test": ["::ffff:127.0.0.1"],
    });
    const proxy = await startProxy({
      allowlist: ["internal.test:*", "meta.test:*"],
      trustedUrls: [],
      resolver,
    });
    for (const name of ["internal.test", "meta.test"]) {
      const response = await proxyRequest(proxy.socketPath, `http://${name}:${upstream.port}/`, {
        headers: { host: name },
      });
      expect(response).toMatchObject({ status: 403, body: DENIED_BODY });
      expect(response.headers["x-proxy-error"]).toBe("blocked_address_loopback");
    }
    expect(asked).toEqual(["internal.test", "meta.test"]);
    expect(upstream.received).toHaveLength(0);
  });

  it("lets a trusted URL reach loopback through its hostname, connecting to the address it checked", async () => {
    const upstream = await startHttpUpstream((_req, res) => res.end("control-plane-response"));
    // The second answer would fail (nothing listens on 127.0.0.2): only a second lookup could reach it.
    let calls = 0;
    const resolver: NetworkResolver = async () => {
      calls += 1;
      return [{ address: calls === 1 ? "127.0.0.1" : "127.0.0.2", family: 4 }];
    };
    const proxy = await startProxy({
      allowlist: ["api.openai.com"],
      trustedUrls: [`http://control.test:${upstream.port}/api/issues/issue-1`],
      resolver,
    });
    const response = await proxyRequest(
      proxy.socketPath,
      `http://control.test:${upstream.port}/api/issues/issue-1`,
      {
        headers: { host: `control.test:${upstream.port}` },
      },
    );
    expect(response).toMatchObject({ status: 200, body: "control-plane-response" });
    expect(calls).toBe(1);
    expect(headerPairs(upstream.received[0]!.rawHeaders)).toContainEqual([
      "Host",
      `control.test:${upstream.port}`,
    ]);
  });

  it("strips hop-by-hop headers in both directions", async () => {
    const upstream = await startHttpUpstream((_req, res) => {
      res.writeHead(
        200,
        [
          ["Connection", "X-Up-Hop"],
          ["X-Up-Hop", "1"],
          ["Keep-Alive", "timeout=99"],
          ["Trailer", "X-T"],
          ["Proxy-Authenticate", "Basic"],
          ["X-Up-Kept", "yes"],
        ].flat(),
      );
      res.end("ok");
    });
    const proxy = await startProxy({ allowlist: [`127.0.0.1:${upstream.port}`], trustedUrls: [] });
    await rawExchange(
      proxy.socketPath,
      [
        `GET http://127.0.0.1:${upstream.port}/raw HTTP/1.1`,
        `Host: 127.0.0.1:${upstream.port}`,
        "Connection: close, X-Hop",
        "X-Hop: secret-hop",
        "Proxy-Connection: keep-alive",
        "Proxy-Authorization: Basic c2VjcmV0",
        "Keep-Alive: timeout=5",
        "TE: trailers",
        "Trailer: X-Trail",
        "Upgrade: h2c",
        "X-Kept: kept",
        "",
        "",
      ].join("\r\n"),
    );
    const response = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${upstream.port}/h`);
    expect(response.status).toBe(200);
    expect(upstream.received[0]!.url).toBe("/raw");
    const sent = headerPairs(upstream.received[0]!.rawHeaders).map(([name]) => name.toLowerCase());
    for (const hop of [
      "x-hop",
      "proxy-connection",
      "proxy-authorization",
      "keep-alive",
      "te",
      "trailer",
      "upgrade",
    ]) {
      expect(sent).not.toContain(hop);
    }
    expect(sent).toContain("x-kept");
    const back = headerPairs(response.rawHeaders).map(([name]) => name.toLowerCase());
    for (const hop of ["x-up-hop", "trailer", "proxy-authenticate"]) expect(back).not.toContain(hop);
    expect(back).toContain("x-up-kept");
    expect(response.headers["keep-alive"]).not.toBe("timeout=99");
  });

  it("answers 502 upstream_error when the upstream cannot be reached or resolved", async () => {
    const port = await refusedPortForTest();
    const { resolver } = resolverFrom({});
    const proxy = await startProxy({
      allowlist: [`127.0.0.1:${port}`, "gone.test"],
      trustedUrls: [],
      resolver,
    });
    const refused = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${port}/`);
    const body =
      '{"error":{"code":"upstream_error","message":"Paperclip sandbox proxy could not reach the upstream server."}}\n';
    expect(refused).toMatchObject({ status: 502, body });
    expect(refused.headers["x-proxy-error"]).toBe("upstream_error");
    const unresolved = await proxyRequest(proxy.socketPath, "http://gone.test/", {
      headers: { host: "gone.test" },
    });
    expect(unresolved).toMatchObject({ status: 502, body });
    expect(unresolved.headers["x-proxy-error"]).toBe("dns_lookup_failed");
  });

  it("cuts the client response when the upstream dies after sending headers", async () => {
    const upstream = await startHttpUpstream((_req, res) => {
      res.writeHead(200, { "Content-Length": "100" });
      res.write("partial");
      setImmediate(() => res.socket?.destroy());
    });
    const proxy = await startProxy({ allowlist: [`127.0.0.1:${upstream.port}`], trustedUrls: [] });
    await expect(proxyRequest(proxy.socketPath, `http://127.0.0.1:${upstream.port}/`)).rejects.toThrow();
    const after = await proxyRequest(proxy.socketPath, `http://127.0.0.1:${upstream.port}/`).catch(
      (error: Error) => error,
    );
    expect(after).toBeInstanceOf(Error);
    expect(proxy.stats().allowed).toBe(2);
  });

  it("refuses protocol upgrades on the plain-HTTP path", async () => {
    const proxy = await startProxy({ allowlist: ["ws.test"], trustedUrls: [] });
    const { response } = await rawExchange(
      proxy.socketPath,
      "GET http://ws.test/ HTTP/1.1\r\nHost: ws.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
    );
    expect(response).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(response).toContain("X-Proxy-Error: upgrade_requires_connect\r\n");
    expect(response).toContain('"code":"upgrade_requires_connect"');
  });

  it("reports every attempt to onNetworkDecision without headers or bodies, and survives a throwing hook", async () => {
    const upstream = await startHttpUpstream();
    const decisions: NetworkDecision[] = [];
    const proxy = await startProxy({
      allowlist: [`127.0.0.1:${upstream.port}`],
      trustedUrls: [],
      onNetworkDecision: (decision) => {
        decisions.push(decision);
        throw new Error("audit hook failure");
      },
    });
    await proxyRequest(proxy.socketPath, `http://127.0.0.1:${upstream.port}/x`, {
      headers: { authorization: "Bearer sk-secret" },
    });
    await proxyRequest(proxy.socketPath, "http://example.com/", { headers: { host: "example.com" } });
    await proxyRequest(proxy.socketPath, "/nope");
    expect(decisions).toEqual([
      { decision: "allow", host: "127.0.0.1", port: upstream.port, reason: "allowlist" },
      { decision: "deny", host: "example.com", port: 80, reason: "not_allowlisted" },
      { decision: "deny", host: "", port: 0, reason: "invalid_request_url" },
    ]);
    expect(JSON.stringify(decisions)).not.toContain("secret");
    const stats = proxy.stats();
    expect(stats).toMatchObject({ connections: 3, allowed: 1, denied: 2 });
    expect(stats.bytesIn).toBeGreaterThan(0);
    expect(stats.bytesOut).toBeGreaterThan(0);
  });
});

describe("writeProxyError", () => {
  it("writes upstream's JSON error with an exact Content-Length and the X-Proxy-Error reason", async () => {
    const server = createServer((_req, res) =>
      writeProxyError(res, 418, "teapot_code", "Ünïcödé message.", "custom_reason"),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const { status, headers, body } = await new Promise<{
      status: number;
      headers: Record<string, unknown>;
      body: Buffer;
    }>((resolve, reject) => {
      request({ host: "127.0.0.1", port, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
        .on("error", reject)
        .end();
    });
    server.close();
    expect(status).toBe(418);
    expect(headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(headers["content-length"]).toBe(String(body.length));
    expect(headers["x-proxy-error"]).toBe("custom_reason");
    expect(body.toString("utf8")).toBe('{"error":{"code":"teapot_code","message":"Ünïcödé message."}}\n');
  });
});

describe("proxy lifecycle", () => {
  it("removes its socket file on close and then refuses connections", async () => {
    const socketPath = await tempSocketPath();
    const proxy = await startSandboxNetworkProxy({ socketPath, allowlist: ["api.test"], trustedUrls: [] });
    expect(existsSync(socketPath)).toBe(true);
    await proxy.close();
    await proxy.close();
    expect(existsSync(socketPath)).toBe(false);
    const error = await new Promise<NodeJS.ErrnoException>((resolve) =>
      connect(socketPath).on("error", resolve),
    );
    expect(error.code).toBe("ENOENT");
  });

  it("fails with ERR_SANDBOX_PROXY_LISTEN when the socket path is taken or its directory is missing", async () => {
    const first = await startProxy({ allowlist: ["api.test"], trustedUrls: [] });
    for (const [socketPath, code] of [
      [first.socketPath, "EADDRINUSE"],
      // libuv reports a missing parent of a Unix socket as EACCES.
      ["/tmp/pc-proxy-missing-dir-for-test/proxy.sock", "EACCES"],
    ] as const) {
      const error = await startSandboxNetworkProxy({
        socketPath,
        allowlist: ["api.test"],
        trustedUrls: [],
      }).catch((caught: unknown) => caught);
      expect(PaperclipError.is(error, "ERR_SANDBOX_PROXY_LISTEN")).toBe(true);
      expect((error as Error).message).toBe(
        `Paperclip sandbox network proxy could not listen on ${socketPath}.`,
      );
      expect((error as PaperclipError).details).toEqual({ socketPath, code });
      expect(((error as Error).cause as NodeJS.ErrnoException).code).toBe(code);
    }
    expect(
      (await proxyRequest(first.socketPath, "http://example.com/", { headers: { host: "example.com" } }))
        .status,
    ).toBe(403);
  });

  it("refuses a socket path longer than 107 bytes instead of letting bind() truncate it", async () => {
    const socketPath = `/tmp/${"d".repeat(100)}/proxy.sock`;
    const error = await startSandboxNetworkProxy({
      socketPath,
      allowlist: ["api.test"],
      trustedUrls: [],
    }).catch((caught: unknown) => caught);
    expect(PaperclipError.is(error, "ERR_SANDBOX_SOCKET_PATH_TOO_LONG")).toBe(true);
    expect((error as Error).message).toBe(
      `Paperclip sandbox proxy socket path is ${Buffer.byteLength(socketPath)} bytes, exceeding the Linux limit of 107: ${socketPath}`,
    );
  });

  it("validates the policy and limits before listening", async () => {
    const socketPath = await tempSocketPath();
    await expect(
      startSandboxNetworkProxy({ socketPath, allowlist: [], trustedUrls: ["ws://x"] }),
    ).rejects.toThrow(
      'networkScope="allowlist" requires at least one valid networkAllowlist hostname or HTTP(S) networkTrustedUrl.',
    );
    await expect(
      startSandboxNetworkProxy({
        socketPath,
        allowlist: ["a.test"],
        trustedUrls: [],
        limits: { maxConnections: 0 },
      }),
    ).rejects.toThrow("Sandbox network proxy limit maxConnections must be a positive integer; got 0.");
    expect(existsSync(socketPath)).toBe(false);
  });
});
