/**
 * The CreateOS API is the one party the plugin cannot trust: a wrong `apiUrl`, a buggy or
 * compromised server. Whatever it answers must end each call within its deadline, with a
 * code, without holding the worker's memory or CPU, without quoting the key, and without
 * leaving a process behind unnoticed. Each server here is a real loopback socket.
 */
import type { Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import type { CreateosRequest } from "../src/client/createos-client.js";
import { execute } from "../src/execute/execute.js";
import { createSandbox, readSandboxStatus } from "../src/lease/sandbox-api.js";
import { dripForever, rawWireServerForTest as rawServer } from "./support/raw-wire-server.js";
import {
  scriptedClient as client,
  GET_SANDBOX as get,
  API_KEY as KEY,
  scriptedServerForTest as server,
} from "./support/scripted-client.js";
import { sendJson } from "./support/scripted-server.js";

const file = {
  method: "GET",
  path: "/sandboxes/sbx_1/files",
  query: { path: "/w/f" },
  operation: "file transfer",
  idempotent: true,
} as const;

const upload: CreateosRequest = {
  ...file,
  method: "PUT",
  upload: async function* () {
    yield Buffer.from("body");
  },
};

const SWITCH = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";
const SWITCH_BARE = "HTTP/1.1 101 Switching Protocols\r\n\r\n";

/** One call of each transport: node:http read whole, node:http streamed, an upload, fetch's download. */
const TRANSPORTS = [
  ["a reply read whole", (url: string) => client(url, { maxAttempts: 1, requestTimeoutMs: 3_000 }).json(get)],
  ["an output stream", (url: string) => client(url, { requestTimeoutMs: 3_000 }).stream(get)],
  [
    "a streamed upload",
    (url: string) => client(url, { maxAttempts: 1, requestTimeoutMs: 3_000 }).json(upload),
  ],
  ["a download", (url: string) => client(url, { maxAttempts: 1, requestTimeoutMs: 3_000 }).download(file)],
] as const;

// fetch (downloads) before undici 7 (Node 20, 22) waits out a bare 101 as a reply that never
// came, so the call's deadline ends it; undici 7 (Node 24) fails the request itself at once.
const BARE_SWITCH_DOWNLOAD_CODE =
  Number(process.versions.undici?.split(".")[0]) >= 7
    ? "ERR_CREATEOS_CONNECTION"
    : "ERR_CREATEOS_REQUEST_TIMEOUT";

describe("a server that switches protocols (101)", () => {
  it.each(
    TRANSPORTS.flatMap(([name, call]) => [
      [`${name}, with Upgrade`, SWITCH, call, "ERR_CREATEOS_CONNECTION"] as const,
      [
        `${name}, bare`,
        SWITCH_BARE,
        call,
        name === "a download" ? BARE_SWITCH_DOWNLOAD_CODE : "ERR_CREATEOS_CONNECTION",
      ] as const,
    ]),
  )("ends %s within its deadline, coded, its socket dropped", async (_name, answer, call, code) => {
    const s = await rawServer((socket) => socket.write(answer));
    // Before the fix node:http ended such a request with neither a response nor an error,
    // where the deadline's abort could no longer reach it: the call waited for ever (and a
    // bare 101 in an upload's reply threw out of an event listener).
    const error = await caught(call(s.url));
    expect(error.code).toBe(code);
    await expect.poll(() => s.openSockets, { timeout: 10_000 }).toBe(0);
  });

  it("ends a process kill answered with 101 as a failed cleanup, not a hang", async () => {
    const s = await rawServer((socket, request) => {
      // One request a connection: the raw server reads only the first head of each.
      const json = (text: string) =>
        `HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
      if (request.head.startsWith("DELETE ")) return socket.write(SWITCH);
      if (request.head.startsWith("POST /v1/sandboxes/sbx_1/processes "))
        return socket.end(json('{"status":"success","data":{"process_id":"p1"}}'));
      // The first frame breaks the protocol, so the process must be killed.
      if (request.head.includes("/connect"))
        return socket.end(json('{"type":"data","seq":0,"stream":"stdout","data_base64":""}\n'));
      socket.end(json('{"status":"success","data":{}}'));
    });
    const error = await caught(execute(client(s.url), { sandboxId: "sbx_1", command: "true" }));
    expect(error.code).toBe("ERR_CREATEOS_CLEANUP_FAILED");
    // Every attempt of the kill's budget was answered 101, and each ended.
    expect(s.seen.filter((request) => request.head.startsWith("DELETE "))).toHaveLength(5);
  });
});

describe("Retry-After beyond reason", () => {
  it.each([
    ["4000000000", "seconds past a timer's range"],
    ["9".repeat(400), "seconds that overflow a number"],
    ["Fri, 31 Dec 9999 23:59:59 GMT", "a date in year 9999"],
  ])("a 429 with Retry-After %s (%s) holds the pacer no longer than the retry cap", async (header) => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on("warning", onWarning);
    onTestFinished(() => {
      process.off("warning", onWarning);
    });
    let calls = 0;
    const s = await server((_req, res) => {
      calls += 1;
      if (calls === 1) return sendJson(res, 429, "{}", { "retry-after": header });
      sendJson(res, 200, { status: "success", data: { status: "running" } });
    });
    // The scripted client caps Retry-After at 1.2 s; a pacer that kept the server's word
    // would park every later call (process kills and sandbox deletes too) for years.
    const c = client(s.url, { maxAttempts: 1 });
    expect((await caught(c.json(get))).code).toBe("ERR_CREATEOS_HTTP_STATUS");
    expect((await c.json(get)).data).toEqual({ status: "running" });
    // A timer past its range fires after 1 ms, with a warning: re-armed, that is a busy loop.
    expect(warnings).not.toContain("TimeoutOverflowWarning");
  });
});

describe("content-encoded replies", () => {
  /** 64 MiB of zeros as `gzip, gzip`: a few hundred bytes on the wire. */
  const bomb = gzipSync(gzipSync(Buffer.alloc(64 * 1024 * 1024)));

  function encodedServer(encoding: string) {
    return rawServer((socket) =>
      socket.end(
        Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-encoding: ${encoding}\r\ncontent-length: ${bomb.length}\r\n\r\n`,
          ),
          bomb,
        ]),
      ),
    );
  }

  it("every transport asks for replies as they are", async () => {
    const s = await server((req, res) => {
      if (req.method === "GET" && (req.url ?? "").startsWith("/v1/sandboxes/sbx_1/files?")) {
        res.writeHead(200);
        return res.end("file");
      }
      sendJson(res, 200, { status: "success", data: {} });
    });
    const c = client(s.url);
    await c.json(get);
    await c.json(upload);
    const download = await c.download(file);
    download.body?.resume();
    await c.stream(get);
    expect(s.seen.map((request) => request.headers["accept-encoding"])).toEqual(Array(4).fill("identity"));
  });

  it.each(TRANSPORTS)(
    "%s refuses a gzip reply unread, with its own code, not retried",
    async (_name, call) => {
      const s = await encodedServer("gzip, gzip");
      const error = await caught(call(s.url));
      expect(error.code).toBe("ERR_CREATEOS_REPLY_ENCODED");
      expect(error.message).toMatch(
        /^CreateOS reply is content-encoded during [a-z ]+; only unencoded replies are accepted\.$/,
      );
      expect((error as { retryable?: boolean }).retryable).toBe(false);
      expect(s.seen).toHaveLength(1);
      await expect.poll(() => s.openSockets, { timeout: 10_000 }).toBe(0);
    },
  );

  it.each(["br", "deflate", "x-gzip", " GZIP "])(
    "refuses Content-Encoding %j on a download",
    async (encoding) => {
      const s = await encodedServer(encoding);
      expect((await caught(client(s.url).download(file))).code).toBe("ERR_CREATEOS_REPLY_ENCODED");
    },
  );

  it("takes Content-Encoding: identity as no encoding", async () => {
    const s = await server((_req, res) =>
      sendJson(res, 200, { status: "success", data: { ok: true } }, { "content-encoding": "identity" }),
    );
    expect((await client(s.url).json(get)).data).toEqual({ ok: true });
  });
});

describe("heads and bodies that never end, or cannot be parsed (these held)", () => {
  const quick = { maxAttempts: 1, requestTimeoutMs: 500 };
  // For answers that fail at once: a deadline no loaded machine reaches first.
  const patient = { maxAttempts: 1, requestTimeoutMs: 10_000 };

  it.each([
    [
      "a status line that never ends",
      (socket: Socket) => {
        socket.write("HTTP/1.1 200 ");
        dripForever(socket, "O", 20);
      },
    ],
    [
      "a header that never ends",
      (socket: Socket) => {
        socket.write("HTTP/1.1 200 OK\r\nx-a: ");
        dripForever(socket, "a", 20);
      },
    ],
    [
      "endless 100 Continue answers",
      (socket: Socket) => dripForever(socket, "HTTP/1.1 100 Continue\r\n\r\n", 5),
    ],
    [
      "a body without a length that drips",
      (socket: Socket) => {
        socket.write("HTTP/1.1 200 OK\r\n\r\n{");
        dripForever(socket, " ", 20);
      },
    ],
    [
      "a body with a length that drips",
      (socket: Socket) => {
        socket.write("HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\n{");
        dripForever(socket, " ", 20);
      },
    ],
  ])("%s ends the call at its deadline (ERR_CREATEOS_REQUEST_TIMEOUT)", async (_name, answer) => {
    const s = await rawServer(answer);
    // A body without a length used to end with the abort that cut it, its bytes so far taken
    // for the reply (here: invalid JSON, not retried; for bytes(), a truncated file).
    expect((await caught(client(s.url, quick).json(get))).code).toBe("ERR_CREATEOS_REQUEST_TIMEOUT");
    expect((await caught(client(s.url, quick).bytes(file))).code).toBe("ERR_CREATEOS_REQUEST_TIMEOUT");
    await expect.poll(() => s.openSockets, { timeout: 10_000 }).toBe(0);
  });

  it.each([
    ["a 100 KB header", `HTTP/1.1 200 OK\r\nx-a: ${"a".repeat(100_000)}\r\n\r\n`],
    [
      "an absurd chunk size",
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nffffffffffffffffffff\r\nabc",
    ],
    [
      "50 KB of trailers",
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nx-t: ${"v".repeat(50_000)}\r\n\r\n`,
    ],
    ["a status line that is not HTTP", "SSH-2.0-OpenSSH_9.6\r\n\r\n"],
  ])("%s is a connection failure, for a reply read whole and for a download", async (_name, answer) => {
    const s = await rawServer((socket) => socket.end(answer));
    expect((await caught(client(s.url, patient).json(get))).code).toBe("ERR_CREATEOS_CONNECTION");
    // A download hands over its body once the head is in: the body's read fails.
    const download = client(s.url, patient).download(file);
    const failed = await caught(download.then(async (reply) => reply.body?.toArray()));
    expect(failed.code).toBe("ERR_CREATEOS_CONNECTION");
  });

  it("an HTTP/1.0 reply without a length is read to its close, within the cap", async () => {
    const body = JSON.stringify({ status: "success", data: { status: "running" } });
    const s = await rawServer((socket) => socket.end(`HTTP/1.0 200 OK\r\n\r\n${body}`));
    expect((await client(s.url, patient).json(get)).data).toEqual({ status: "running" });
    const big = await rawServer((socket) => {
      socket.write("HTTP/1.0 200 OK\r\n\r\n");
      socket.end(Buffer.alloc(64 * 1024, 0x20));
    });
    const error = await caught(client(big.url, { ...patient, maxReplyBytes: 1024 }).json(get));
    expect(error.code).toBe("ERR_CREATEOS_REPLY_TOO_LARGE");
  });
});

describe("ids and envelopes a server makes up (these held)", () => {
  const HOSTILE_IDS = ["a/b", "..", "%2F", "p?x=1", "p#f", "p\u0000", "x".repeat(1024 * 1024), 7, null];

  it.each(HOSTILE_IDS.map((id) => [String(id).slice(0, 12), id]))(
    "a created process id %j never reaches a URL: the outcome is unconfirmed",
    async (_shown, id) => {
      const s = await server((_req, res) =>
        sendJson(res, 200, { status: "success", data: { process_id: id } }),
      );
      const error = await caught(execute(client(s.url), { sandboxId: "sbx_1", command: "true" }));
      expect(error.code).toBe("ERR_CREATEOS_PROCESS_UNCONFIRMED");
      expect((error.cause as { code?: string }).code).toBe("ERR_CREATEOS_INVALID_RESOURCE_ID");
      expect(s.seen).toHaveLength(1);
    },
  );

  it.each(HOSTILE_IDS.map((id) => [String(id).slice(0, 12), id]))(
    "a created sandbox id %j is refused",
    async (_shown, id) => {
      const s = await server((_req, res) => sendJson(res, 200, { status: "success", data: { id } }));
      const error = await caught(
        createSandbox(
          client(s.url),
          { shape: "s", rootfs: undefined, region: undefined },
          AbortSignal.timeout(10_000),
        ),
      );
      expect(error.code).toBe("ERR_CREATEOS_INVALID_RESOURCE_ID");
    },
  );

  it.each([
    ["a status only in __proto__", '{"status":"success","data":{"__proto__":{"status":"running"}}}'],
    ["a status in constructor", '{"status":"success","data":{"constructor":{"status":"running"}}}'],
    ["a status as a number", '{"status":"success","data":{"status":1}}'],
    [
      "an envelope whose status is in __proto__",
      '{"__proto__":{"status":"success"},"data":{"status":"running"}}',
    ],
  ])("%s is no sandbox state", async (_name, body) => {
    const s = await server((_req, res) => sendJson(res, 200, body));
    const error = await caught(readSandboxStatus(client(s.url), "sbx_1", AbortSignal.timeout(10_000)));
    expect(["ERR_CREATEOS_INVALID_RESPONSE", "ERR_CREATEOS_UNSUCCESSFUL_RESPONSE"]).toContain(error.code);
    expect(({} as { status?: unknown }).status).toBeUndefined();
  });
});

describe("output streams that break the protocol (these held)", () => {
  /** A process whose output connection answers `stream` (raw bytes); the kill confirms. */
  function processServer(stream: string | Buffer) {
    return server((req, res) => {
      const url = req.url ?? "";
      if (url.endsWith("/processes"))
        return sendJson(res, 200, { status: "success", data: { process_id: "p1" } });
      if (url.includes("/connect")) {
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        return res.end(stream);
      }
      if (url.includes("/wait"))
        return sendJson(res, 200, { status: "success", data: { exit_code: 0, output: { newest_seq: 1 } } });
      if (req.method === "DELETE")
        return sendJson(res, 200, { status: "success", data: { tree_exited: true } });
      sendJson(res, 200, { status: "success", data: {} });
    });
  }
  const data = (fields: string) => `{"type":"data","stream":"stdout",${fields}}\n`;

  it.each([
    ["seq 2^53", data('"seq":9007199254740992,"data_base64":"aGk="'), "ERR_CREATEOS_SEQUENCE_INVALID"],
    ["seq 1e400", data('"seq":1e400,"data_base64":"aGk="'), "ERR_CREATEOS_SEQUENCE_INVALID"],
    ["seq -1", data('"seq":-1,"data_base64":"aGk="'), "ERR_CREATEOS_SEQUENCE_INVALID"],
    ["seq 1.5", data('"seq":1.5,"data_base64":"aGk="'), "ERR_CREATEOS_SEQUENCE_INVALID"],
    ['seq "1"', data('"seq":"1","data_base64":"aGk="'), "ERR_CREATEOS_SEQUENCE_INVALID"],
    ["seq 2 first", data('"seq":2,"data_base64":"aGk="'), "ERR_CREATEOS_SEQUENCE_GAP"],
    ["base64 that is not", data('"seq":1,"data_base64":"a$k="'), "ERR_CREATEOS_OUTPUT_INVALID"],
    ["an exit code as a string", '{"type":"exit","exit_code":"0"}\n', "ERR_CREATEOS_OUTPUT_INVALID"],
    ["an exit code of 1.5", '{"type":"exit","exit_code":1.5}\n', "ERR_CREATEOS_OUTPUT_INVALID"],
    ["a signal of 1 KB", `{"type":"exit","signal":"${"S".repeat(1024)}"}\n`, "ERR_CREATEOS_OUTPUT_INVALID"],
  ])("%s fails the command with its code, and the process is killed", async (_name, stream, code) => {
    const s = await processServer(stream);
    const error = await caught(execute(client(s.url), { sandboxId: "sbx_1", command: "true" }));
    expect(error.code).toBe(code);
    expect(s.seen.filter((request) => request.method === "DELETE")).toHaveLength(1);
  });

  it("a frame past the frame cap, with no newline, is refused once the cap is passed", async () => {
    const s = await processServer(
      Buffer.concat([
        Buffer.from(data('"seq":1,"data_base64":"').slice(0, -1)),
        Buffer.alloc(2 * 1024 * 1024, 0x41),
      ]),
    );
    const error = await caught(
      execute(client(s.url), { sandboxId: "sbx_1", command: "true" }, { maxFrameBytes: 64 * 1024 }),
    );
    expect(error.code).toBe("ERR_CREATEOS_OUTPUT_INVALID");
    expect(error.details).toEqual({ reason: "frame too long" });
    expect(s.seen.filter((request) => request.method === "DELETE")).toHaveLength(1);
  });

  it("output after an exit frame is not read; replayed and backward frames count once", async () => {
    const s = await processServer(
      [
        data('"seq":1,"data_base64":"aGk="'),
        data('"seq":1,"data_base64":"aGk="'),
        data('"seq":2,"data_base64":"IQ=="'),
        data('"seq":1,"data_base64":"aGk="'),
        '{"type":"exit","exit_code":0}\n',
        data('"seq":3,"data_base64":"bW9yZQ=="'),
      ].join(""),
    );
    const result = await execute(client(s.url), { sandboxId: "sbx_1", command: "true" });
    expect(result).toMatchObject({ exitCode: 0, stdout: "hi!" });
    expect(result.metadata).toMatchObject({ lastSeq: 2 });
  });

  it("an error frame never carries the key into the error", async () => {
    const s = await processServer(`{"type":"error","error":"bad key ${KEY}"}\n`);
    const error = await caught(execute(client(s.url), { sandboxId: "sbx_1", command: "true" }));
    expect(error.code).toBe("ERR_CREATEOS_OUTPUT_INVALID");
    // Before the fix `details.error` quoted the frame's text, key and all.
    expect(error.details).toEqual({ reason: "error frame", error: null });
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(KEY);
  });
});
