import { afterEach, describe, expect, it } from "vitest";
import type { NetworkResolver } from "../src/proxy/index.js";
import {
  closeAll,
  headerPairs,
  proxyRequest,
  resolverFrom,
  startHttpUpstream,
  startProxy,
} from "./proxy-support.js";

afterEach(closeAll);

const DENIED_BODY =
  '{"error":{"code":"network_target_denied","message":"Network target denied by Paperclip sandbox policy."}}\n';

describe("the allowlist on plain HTTP through the sandbox proxy", () => {
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
});
