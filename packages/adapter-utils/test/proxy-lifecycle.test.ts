import { existsSync } from "node:fs";
import { createServer, request } from "node:http";
import { connect } from "node:net";
import { PaperclipError } from "@paperclipai/errors";
import { afterEach, describe, expect, it } from "vitest";
import { startSandboxNetworkProxy, writeProxyError } from "../src/proxy/index.js";
import { closeAll, proxyRequest, startProxy, tempSocketPath } from "./proxy-support.js";

afterEach(closeAll);

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
