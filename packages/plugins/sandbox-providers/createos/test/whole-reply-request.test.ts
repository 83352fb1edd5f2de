import { describe, expect, it } from "vitest";
import { requestWhole, type WholeRequestInit } from "../src/client/whole-reply-request.js";
import { scriptedServerForTest as server } from "./support/scripted-client.js";

function init(extra: Partial<WholeRequestInit> = {}): WholeRequestInit {
  return {
    method: "GET",
    headers: { Accept: "application/json" },
    body: undefined,
    signal: new AbortController().signal,
    maxBytes: 1_000,
    tooLarge: (declared) => new Error(`too large (${declared ?? "read"})`),
    ...extra,
  };
}

describe("requestWhole (node:http, reply read whole)", () => {
  it("sends the body with its length and reads a 2xx reply whole", async () => {
    const s = await server((_req, res, body) => {
      res.writeHead(200, { "retry-after": "2" });
      res.end(`echo:${body}`);
    });
    const reply = await requestWhole(`${s.url}/v1/x`, init({ method: "POST", body: "héllo" }));
    expect(reply).toMatchObject({ status: 200, retryAfter: "2" });
    expect(reply.body?.toString("utf8")).toBe("echo:héllo");
    expect(s.seen[0]?.headers["content-length"]).toBe(String(Buffer.byteLength("héllo")));
  });

  it("hands a redirect back without following it, and never reads a non-2xx body", async () => {
    const target = await server((_req, res) => res.end("followed"));
    const s = await server((req, res) => {
      if (req.url === "/redirect") {
        res.writeHead(302, { location: `${target.url}/stolen` });
        res.end();
        return;
      }
      res.writeHead(403);
      res.end("secret echo");
    });
    expect(await requestWhole(`${s.url}/redirect`, init())).toEqual({
      status: 302,
      retryAfter: null,
      contentEncoding: null,
      body: null,
    });
    expect(target.seen).toEqual([]);
    expect(await requestWhole(`${s.url}/denied`, init())).toEqual({
      status: 403,
      retryAfter: null,
      contentEncoding: null,
      body: null,
    });
  });

  it("refuses a body past the cap: up front by Content-Length, else once the bytes pass it", async () => {
    const s = await server((req, res) => {
      if (req.url === "/declared") {
        res.writeHead(200, { "content-length": "5000" });
        res.end("x".repeat(5000));
        return;
      }
      res.writeHead(200);
      res.write("x".repeat(800));
      setTimeout(() => res.end("x".repeat(800)), 20);
    });
    await expect(requestWhole(`${s.url}/declared`, init())).rejects.toThrow("too large (5000)");
    await expect(requestWhole(`${s.url}/chunked`, init())).rejects.toThrow("too large (read)");
  });

  it("a connection cut before the body's end, and the caller's abort, fail the request", async () => {
    const s = await server((req, res) => {
      res.writeHead(200, { "content-length": "100" });
      res.write("partial");
      if (req.url === "/cut") setTimeout(() => res.socket?.destroy(), 20);
    });
    await expect(requestWhole(`${s.url}/cut`, init())).rejects.toBeInstanceOf(Error);
    const controller = new AbortController();
    const pending = requestWhole(`${s.url}/hang`, init({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});
