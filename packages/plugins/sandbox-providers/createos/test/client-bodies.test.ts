import { once } from "node:events";
import type { ServerResponse } from "node:http";
import { text } from "node:stream/consumers";
import { setTimeout as delay } from "node:timers/promises";
import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import {
  scriptedClient as client,
  GET_SANDBOX as get,
  scriptedServerForTest as server,
} from "./support/scripted-client.js";
import { sendJson } from "./support/scripted-server.js";

const file = {
  method: "GET",
  path: "/sandboxes/sbx_1/files",
  operation: "file transfer",
  idempotent: true,
} as const;

/** Writes `total` bytes in 64 KiB chunks as fast as the peer reads them; resolves with what got out. */
async function pour(res: ServerResponse, total: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, "x");
  let written = 0;
  while (written < total && !res.destroyed) {
    written += chunk.length;
    if (!res.write(chunk)) await Promise.race([once(res, "drain"), once(res, "close")]);
  }
  res.end();
  return written;
}

describe("reply bodies read into memory are capped", () => {
  it("refuses a reply whose Content-Length passes the cap, without reading it or retrying", async () => {
    const body = JSON.stringify({ status: "success", data: { pad: "y".repeat(4096) } });
    const s = await server((_req, res) =>
      sendJson(res, 200, body, { "content-length": String(Buffer.byteLength(body)) }),
    );
    const error = await caught(client(s.url, { maxReplyBytes: 1024 }).json(get));
    expect(error.code).toBe("ERR_CREATEOS_REPLY_TOO_LARGE");
    expect(error.message).toBe("CreateOS reply is larger than 1024 bytes during sandbox lifecycle.");
    expect(error.details).toMatchObject({ operation: "sandbox lifecycle", limitBytes: 1024 });
    expect(error.details?.declaredBytes).toBe(Buffer.byteLength(body));
    expect(s.seen).toHaveLength(1);
  });

  it("stops reading a body without a length as soon as it passes the cap", async () => {
    const total = 256 * 1024 * 1024;
    let poured: Promise<number> | undefined;
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      poured = pour(res, total);
    });
    const error = await caught(client(s.url, { maxReplyBytes: 100_000 }).bytes(file));
    expect(error.code).toBe("ERR_CREATEOS_REPLY_TOO_LARGE");
    expect(error.details).toEqual({ operation: "file transfer", limitBytes: 100_000 });
    // The client dropped the connection: the server could not hand over the whole reply.
    expect(await poured).toBeLessThan(total);
  });

  it("reads a reply at the cap whole", async () => {
    const body = JSON.stringify({ status: "success", data: { ok: true } });
    const s = await server((_req, res) => sendJson(res, 200, body));
    const reply = await client(s.url, { maxReplyBytes: Buffer.byteLength(body) }).json(get);
    expect(reply.data).toEqual({ ok: true });
  });
});

describe("downloads are streamed", () => {
  it("hands over a body far larger than the cap, as fast as it is read", async () => {
    const total = 32 * 1024 * 1024;
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      void pour(res, total);
    });
    const reply = await client(s.url, { maxReplyBytes: 1024 }).download(file);
    let received = 0;
    for await (const chunk of reply.body!) received += (chunk as Buffer).length;
    expect(received).toBe(total);
  });

  it("gives null for an allowed 404 and retries a 503 before the body starts", async () => {
    let calls = 0;
    const s = await server((_req, res) => {
      calls += 1;
      if (calls === 1) return sendJson(res, 503, "{}");
      if (calls === 2) {
        res.writeHead(200);
        return res.end("payload");
      }
      return sendJson(res, 404, "{}");
    });
    const c = client(s.url);
    const first = await c.download({ ...file, allowStatuses: [404] });
    expect(await text(first.body!)).toBe("payload");
    expect(await c.download({ ...file, allowStatuses: [404] })).toEqual({ status: 404, body: null });
    expect(calls).toBe(3);
  });

  it("fails a body that stalls with ERR_CREATEOS_REQUEST_TIMEOUT; the deadline restarts with every chunk", async () => {
    const s = await server(async (req, res) => {
      res.writeHead(200);
      const chunks = req.url?.includes("stall") ? 1 : 20;
      for (let index = 0; index < chunks; index++) {
        res.write("chunk\n");
        await delay(200);
      }
      if (chunks > 1) res.end();
    });
    // Twenty chunks 200 ms apart take longer than the 3 s deadline, yet never wait 3 s for
    // one. The server shares this event loop: after a stall of the loop its next write and the
    // deadline are due at once, and the deadline fires before the chunk is read, so the margin
    // between them (2.8 s) must outlast a stall on a loaded machine.
    const c = client(s.url, { requestTimeoutMs: 3_000 });
    const steady = await c.download(file);
    expect(await text(steady.body!)).toBe("chunk\n".repeat(20));
    const stalled = await c.download({ ...file, path: "/sandboxes/sbx_1/files", query: { path: "/stall" } });
    const error = await caught(text(stalled.body!));
    expect(error.code).toBe("ERR_CREATEOS_REQUEST_TIMEOUT");
  });
});

describe("uploads are streamed", () => {
  it("sends the body as it is produced, and makes it again for a retried attempt", async () => {
    let calls = 0;
    const s = await server((_req, res) => {
      calls += 1;
      sendJson(res, calls === 1 ? 503 : 200, { status: "success", data: {} });
    });
    let made = 0;
    await client(s.url).json({
      method: "PUT",
      path: "/sandboxes/sbx_1/files",
      operation: "file transfer",
      idempotent: true,
      upload: async function* () {
        made += 1;
        for (let index = 0; index < 4; index++) yield Buffer.from(`part ${index}\n`);
      },
    });
    expect(made).toBe(2);
    expect(s.seen.map((request) => request.body)).toEqual([
      "part 0\npart 1\npart 2\npart 3\n",
      "part 0\npart 1\npart 2\npart 3\n",
    ]);
    expect(s.seen[1]!.headers["content-type"]).toBe("application/octet-stream");
  });

  it("throws the source's own error, not a connection error, and does not retry it", async () => {
    const s = await server((_req, res) => sendJson(res, 200, { status: "success", data: {} }));
    const broken = new Error("disk on fire");
    let made = 0;
    await expect(
      client(s.url).json({
        method: "PUT",
        path: "/sandboxes/sbx_1/files",
        operation: "file transfer",
        idempotent: true,
        upload: async function* () {
          made += 1;
          yield Buffer.from("start");
          throw broken;
        },
      }),
    ).rejects.toBe(broken);
    expect(made).toBe(1);
  });

  it("refuses a redirect like fetch does: its own code, not retried, the Location never called", async () => {
    const target = await server((_req, res) => sendJson(res, 200, { status: "success", data: {} }));
    const s = await server((_req, res) => {
      res.writeHead(307, { location: `${target.url}/v1/steal` });
      res.end();
    });
    const error = await caught(
      client(s.url).json({
        ...file,
        method: "PUT",
        upload: async function* () {
          yield Buffer.from("body");
        },
      }),
    );
    expect(error.code).toBe("ERR_CREATEOS_REDIRECT");
    expect(error.message).toBe(
      "CreateOS request was redirected during file transfer; redirects are refused.",
    );
    expect(s.seen).toHaveLength(1);
    expect(target.seen).toHaveLength(0);
  });
});

describe("small text bodies", () => {
  it("are sent as they are, as octet-stream", async () => {
    const s = await server((_req, res) => sendJson(res, 200, { status: "success", data: {} }));
    await client(s.url).json({ ...file, method: "PUT", text: "marker ü" });
    expect(s.seen[0]!.body).toBe("marker ü");
    expect(s.seen[0]!.headers["content-type"]).toBe("application/octet-stream");
  });
});
