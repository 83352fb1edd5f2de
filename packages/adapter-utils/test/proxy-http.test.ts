import { refusedPortForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import type { NetworkDecision } from "../src/proxy/index.js";
import {
  closeAll,
  headerPairs,
  proxyRequest,
  rawExchange,
  resolverFrom,
  startHttpUpstream,
  startProxy,
} from "./proxy-support.js";

afterEach(closeAll);

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
