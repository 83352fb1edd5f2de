import { setTimeout as delay } from "node:timers/promises";
import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { execute } from "../src/execute/execute.js";
import { closedPort } from "./support/closed-port.js";
import { startIdleCuttingJournal } from "./support/idle-cutting-journal.js";
import {
  scriptedClient as client,
  GET_SANDBOX as get,
  API_KEY as KEY,
  scriptedServerForTest as server,
} from "./support/scripted-client.js";
import { sendJson } from "./support/scripted-server.js";

describe("CreateosClient over HTTP", () => {
  it("sends X-Api-Key to /v1 and unwraps the envelope", async () => {
    const s = await server((_req, res) =>
      sendJson(res, 200, { status: "success", data: { id: "sbx_1", status: "running" } }),
    );
    const reply = await client(s.url).json(get);
    expect(reply).toEqual({ status: 200, data: { id: "sbx_1", status: "running" } });
    expect(s.seen[0]).toMatchObject({ method: "GET", url: "/v1/sandboxes/sbx_1" });
    expect(s.seen[0]!.headers["x-api-key"]).toBe(KEY);
  });

  it.each([
    ["not json", "CreateOS returned invalid JSON."],
    [JSON.stringify({ status: "error", data: {} }), "CreateOS returned an unsuccessful response."],
    [JSON.stringify({ status: "success", data: "x" }), "CreateOS returned an invalid response."],
  ])("rejects the reply %s", async (body, message) => {
    const s = await server((_req, res) => sendJson(res, 200, body));
    expect((await caught(client(s.url).json(get))).message).toBe(message);
  });

  it("takes a 204 as an empty success, but an empty 200 as invalid JSON", async () => {
    const s = await server((req, res) => {
      res.writeHead(req.method === "DELETE" ? 204 : 200);
      res.end();
    });
    const c = client(s.url);
    expect(await c.json({ ...get, method: "DELETE" })).toEqual({ status: 204, data: {} });
    expect((await caught(c.json(get))).message).toBe("CreateOS returned invalid JSON.");
  });

  it("rejects an invalid resource id from a create", async () => {
    const s = await server((_req, res) =>
      sendJson(res, 200, { status: "success", data: { process_id: "../../etc" } }),
    );
    const error = await caught(execute(client(s.url), { sandboxId: "sbx_1", command: "true" }));
    // The create's reply was unusable: the process may exist, so the outcome is unconfirmed.
    expect(error.message).toBe(
      "CreateOS process creation could not be confirmed; destroy the lease before reusing it.",
    );
    expect((error.cause as Error).message).toBe("CreateOS returned an invalid resource ID.");
  });

  it("discards a failed call's body and never quotes it", async () => {
    const s = await server((_req, res) => sendJson(res, 403, { error: `bad key ${KEY}` }));
    const error = await caught(client(s.url).json(get));
    expect(error.message).toBe("CreateOS request failed (HTTP 403) during sandbox lifecycle.");
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(KEY);
    expect(s.seen).toHaveLength(1);
  });

  it("retries idempotent calls on 503 honouring Retry-After, and never retries a create", async () => {
    let calls = 0;
    const s = await server((_req, res) => {
      calls++;
      if (calls < 3) sendJson(res, 503, "down", { "retry-after": "0" });
      else sendJson(res, 200, { status: "success", data: { status: "running" } });
    });
    expect((await client(s.url).json(get)).data).toEqual({ status: "running" });
    expect(s.seen).toHaveLength(3);

    s.setHandler((_req, res) => sendJson(res, 503, "down"));
    const created = await caught(
      client(s.url).json({
        method: "POST",
        path: "/sandboxes",
        json: { shape: "s" },
        operation: "sandbox lifecycle",
        idempotent: false,
      }),
    );
    expect(created.message).toBe("CreateOS request failed (HTTP 503) during sandbox lifecycle.");
    expect(s.seen.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("gives up after the attempt budget with the last status", async () => {
    const s = await server((_req, res) => sendJson(res, 502, "bad gateway"));
    const error = await caught(client(s.url, { maxAttempts: 3 }).json(get));
    expect(error).toMatchObject({ status: 502, operation: "sandbox lifecycle", retryable: true });
    expect(s.seen).toHaveLength(3);
  });

  it("refuses redirects with their own code, not retried, so the key never follows one", async () => {
    const target = await server((_req, res) => sendJson(res, 200, { status: "success", data: {} }));
    const s = await server((_req, res) => {
      res.writeHead(302, { location: `${target.url}/v1/steal` });
      res.end();
    });
    const error = await caught(client(s.url, { maxAttempts: 5 }).json(get));
    expect(error.message).toBe(
      "CreateOS request was redirected during sandbox lifecycle; redirects are refused.",
    );
    expect(error.code).toBe("ERR_CREATEOS_REDIRECT");
    expect((error as { retryable?: boolean }).retryable).toBe(false);
    expect(error.cause).toBeUndefined();
    expect(s.seen).toHaveLength(1);
    expect(target.seen).toHaveLength(0);
  });

  it("reports an unreachable origin without the cause", async () => {
    const port = await closedPort();
    const error = await caught(client(`http://127.0.0.1:${port}`, { maxAttempts: 2 }).json(get));
    expect(error.message).toBe("CreateOS connection failed.");
    expect(error.code).toBe("ERR_CREATEOS_CONNECTION");
    expect(String(error.stack)).not.toContain(String(port));
  });

  it("times out one attempt and retries it", async () => {
    let calls = 0;
    const s = await server((_req, res) => {
      calls++;
      if (calls === 1) return; // never answers
      sendJson(res, 200, { status: "success", data: { ok: true } });
    });
    expect((await client(s.url, { requestTimeoutMs: 150 }).json(get)).data).toEqual({ ok: true });
    expect(s.seen).toHaveLength(2);
  });

  it("a timeout is coded with the operation", async () => {
    const s = await server(() => undefined);
    const error = await caught(client(s.url, { requestTimeoutMs: 100, maxAttempts: 1 }).json(get));
    expect(error.message).toBe("CreateOS request timed out during sandbox lifecycle.");
    expect(error.code).toBe("ERR_CREATEOS_REQUEST_TIMEOUT");
  });

  it("an abort while waiting rejects with the caller's reason", async () => {
    const s = await server(() => undefined);
    const controller = new AbortController();
    const pending = client(s.url).json({ ...get, signal: controller.signal });
    const reason = new Error("stop now");
    setTimeout(() => controller.abort(reason), 30);
    await expect(pending).rejects.toBe(reason);
  });

  it("after a 429 the pacer holds later requests until Retry-After", async () => {
    const order: string[] = [];
    let first = true;
    const s = await server((req, res) => {
      order.push(req.url ?? "");
      if (first) {
        first = false;
        sendJson(res, 429, "slow down", { "retry-after": "1" });
      } else sendJson(res, 200, { status: "success", data: {} });
    });
    const c = client(s.url, { maxAttempts: 1 });
    await caught(c.json(get));
    // Queued behind the pause: a second call starts only after it, not at once.
    const started = order.length;
    const second = c.json({ ...get, path: "/sandboxes/sbx_2" });
    await delay(200);
    expect(order.length).toBe(started);
    await second;
    expect(order).toEqual(["/v1/sandboxes/sbx_1", "/v1/sandboxes/sbx_2"]);
  });
});

describe("execute against a scripted server: protocol violations", () => {
  async function streamServer(lines: string[]) {
    return server((req, res) => {
      const url = req.url ?? "";
      if (url.endsWith("/processes"))
        return sendJson(res, 200, { status: "success", data: { process_id: "p1" } });
      if (url.includes("/stdin/close")) return sendJson(res, 200, { status: "success", data: {} });
      if (url.includes("/connect")) {
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        res.end(lines.map((line) => `${line}\n`).join(""));
        return;
      }
      if (url.includes("/wait")) {
        return sendJson(res, 200, {
          status: "success",
          data: { exit_code: 0, signal: null, output: { newest_seq: 1 } },
        });
      }
      if (req.method === "DELETE")
        return sendJson(res, 200, { status: "success", data: { tree_exited: true } });
      sendJson(res, 404, "no");
    });
  }

  it("rejects an invalid sequence number and kills the process", async () => {
    const s = await streamServer(['{"type":"data","seq":0,"stream":"stdout","data_base64":"aGk="}']);
    const error = await caught(execute(client(s.url), { sandboxId: "sbx_1", command: "true" }));
    expect(error.message).toBe("CreateOS process sequence is invalid.");
    expect(error.code).toBe("ERR_CREATEOS_SEQUENCE_INVALID");
    expect(
      s.seen.some((r) => r.method === "DELETE" && r.url === "/v1/sandboxes/sbx_1/processes/p1?grace_ms=1000"),
    ).toBe(true);
  });

  it("rejects a frame that is not JSON", async () => {
    const s = await streamServer(["{oops"]);
    expect((await caught(execute(client(s.url), { sandboxId: "sbx_1", command: "true" }))).message).toBe(
      "CreateOS process output is invalid.",
    );
  });

  it("ignores unknown frame types and trusts an exit whose tail is complete", async () => {
    const s = await streamServer([
      '{"type":"banner"}',
      '{"type":"heartbeat"}',
      '{"type":"data","seq":1,"stream":"stdout","data_base64":"aGk="}',
      '{"type":"exit","exit_code":0}',
    ]);
    const result = await execute(client(s.url), { sandboxId: "sbx_1", command: "true" });
    expect(result).toMatchObject({ exitCode: 0, stdout: "hi" });
    expect(s.seen.filter((r) => r.url.includes("/wait"))).toHaveLength(1);
  });

  it("sends the process create as bash -c with the quoted script, never a login shell", async () => {
    const s = await streamServer(['{"type":"exit","exit_code":0}']);
    let create: unknown;
    s.setHandler((req, res, body) => {
      if ((req.url ?? "").endsWith("/processes")) {
        create = JSON.parse(body);
        return sendJson(res, 200, { status: "success", data: { process_id: "p1" } });
      }
      if ((req.url ?? "").includes("/connect")) {
        res.writeHead(200);
        res.end('{"type":"exit","exit_code":0}\n');
        return;
      }
      if ((req.url ?? "").includes("/wait")) {
        return sendJson(res, 200, { status: "success", data: { exit_code: 0, output: { newest_seq: 0 } } });
      }
      sendJson(res, 200, { status: "success", data: {} });
    });
    const result = await execute(client(s.url), {
      sandboxId: "sbx_1",
      command: "echo",
      args: ["x y"],
      cwd: "/w",
      env: { A: "1" },
    });
    expect(result.exitCode).toBe(0);
    expect(create).toEqual({
      cmd: "/bin/bash",
      args: ["-c", "cd -- '/w' || exit\nA='1' exec -- 'echo' 'x y'"],
    });
  });
});

describe("execute against a scripted server: budget and completeness", () => {
  const b64 = (text: string) => Buffer.from(text).toString("base64");
  const data = (seq: number, text: string) =>
    JSON.stringify({ type: "data", seq, stream: "stdout", data_base64: b64(text) });

  function scripted(connect: (after: number, attempt: number) => string[], wait: () => [number, unknown]) {
    let connects = 0;
    return server((req, res) => {
      const url = new URL(req.url ?? "", "http://x");
      if (url.pathname.endsWith("/processes"))
        return sendJson(res, 200, { status: "success", data: { process_id: "p1" } });
      if (url.pathname.endsWith("/connect")) {
        const lines = connect(Number(url.searchParams.get("after")), ++connects);
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        res.end(lines.map((line) => `${line}\n`).join(""));
        return;
      }
      if (url.pathname.endsWith("/wait")) {
        const [status, body] = wait();
        return sendJson(res, status, body);
      }
      if (req.method === "DELETE")
        return sendJson(res, 200, { status: "success", data: { tree_exited: true } });
      sendJson(res, 200, { status: "success", data: {} });
    });
  }

  async function cuttingProxy(options: Parameters<typeof startIdleCuttingJournal>[0]) {
    const s = await startIdleCuttingJournal(options);
    onTestFinished(s.close);
    return s;
  }

  it("a proxy that cuts long idle streams (heartbeats for a whole stall window) never exhausts the budget", async () => {
    const cuts = 6;
    // Heartbeats every 20 ms for 150 ms (longer than the 100 ms stall window), then the cut.
    const s = await cuttingProxy({ cuts, heartbeatMs: 20, cutAfterMs: 150 });
    const log: string[] = [];
    const result = await execute(
      client(s.url),
      { sandboxId: "sbx_1", command: "sleep", args: ["600"], onLog: (_s, text) => log.push(text) },
      { reconnectAttempts: 2, waitProbeMs: 0, stallTimeoutMs: 100 },
    );
    expect(result).toMatchObject({ exitCode: 0, stdout: "finally\n" });
    expect(log).toEqual(["finally\n"]);
    expect(s.seen.filter((r) => r.url.includes("/connect"))).toHaveLength(cuts + 1);
  });

  it("a stall among the cuts (no wait probe after it) still delivers the output once, from the cursor", async () => {
    const cuts = 6;
    // Connection 2 goes silent: the watchdog aborts it, and a stall is resumed without asking wait.
    const s = await cuttingProxy({ cuts, heartbeatMs: 20, cutAfterMs: 150, silentConnections: [2] });
    const log: string[] = [];
    const result = await execute(
      client(s.url),
      { sandboxId: "sbx_1", command: "sleep", args: ["600"], onLog: (_s, text) => log.push(text) },
      { reconnectAttempts: 2, waitProbeMs: 0, stallTimeoutMs: 100 },
    );
    expect(s.silentGivenUp).toBe(1);
    expect(result).toMatchObject({ exitCode: 0, stdout: "finally\n" });
    expect(result.metadata).toMatchObject({ lastSeq: 1, connections: cuts + 1 });
    expect(log).toEqual(["finally\n"]);
    const connects = s.seen.filter((r) => r.url.includes("/connect"));
    expect(connects.map((r) => new URL(r.url, "http://x").searchParams.get("after"))).toEqual(
      Array(cuts + 1).fill("0"),
    );
    // The one sent with the first connect (answered 408: still running), then one per
    // connection that ended on its own (the cuts and the exit), none after the stall.
    expect(s.seen.filter((r) => r.url.includes("/wait"))).toHaveLength(cuts + 1);
  });

  it("short streams of heartbeats and replayed duplicates are no progress: the budget runs out", async () => {
    const s = await scripted(
      () => ['{"type":"heartbeat"}', data(1, "one\n"), '{"type":"heartbeat"}'],
      () => [408, "still running"],
    );
    const log: string[] = [];
    const error = await caught(
      execute(
        client(s.url),
        { sandboxId: "sbx_1", command: "sleep", args: ["600"], onLog: (_s, text) => log.push(text) },
        { reconnectAttempts: 2, waitProbeMs: 0 },
      ),
    );
    expect(error.code).toBe("ERR_CREATEOS_STREAM_ENDED");
    expect(error.details).toEqual({ attempts: 3, lastStatus: null, cursor: 1, processId: "p1" });
    expect(log).toEqual(["one\n"]);
    expect(s.seen.filter((r) => r.url.includes("/connect"))).toHaveLength(3);
  });

  it("streams that end with no frame at all exhaust the budget: stream ended without an exit status", async () => {
    const s = await scripted(
      () => [],
      () => [408, "still running"],
    );
    const error = await caught(
      execute(
        client(s.url),
        { sandboxId: "sbx_1", command: "sleep", args: ["600"] },
        { reconnectAttempts: 2, waitProbeMs: 0 },
      ),
    );
    expect(error.message).toBe("CreateOS process stream ended without an exit status.");
    expect(error.details).toEqual({ attempts: 3, lastStatus: null, cursor: 0, processId: "p1" });
    expect(s.seen.filter((r) => r.method === "DELETE")).toHaveLength(1);
  });

  it("an exit frame is trusted only when wait reports no newer output; the tail is replayed", async () => {
    let waits = 0;
    const s = await scripted(
      (after) =>
        after === 0
          ? [data(1, "one\n"), '{"type":"exit","exit_code":5}']
          : [data(1, "one\n"), data(2, "two\n"), '{"type":"exit","exit_code":5}'],
      () => {
        waits++;
        return [200, { status: "success", data: { exit_code: 5, output: { newest_seq: 2 } } }];
      },
    );
    const log: string[] = [];
    const result = await execute(client(s.url), {
      sandboxId: "sbx_1",
      command: "x",
      onLog: (_s, t) => log.push(t),
    });
    expect(result).toMatchObject({ exitCode: 5, stdout: "one\ntwo\n" });
    expect(log).toEqual(["one\n", "two\n"]);
    expect(s.seen.filter((r) => r.url.includes("/connect")).map((r) => r.url.split("?")[1])).toEqual([
      "after=0",
      "after=1",
    ]);
    expect(waits).toBe(2);
  });
});
