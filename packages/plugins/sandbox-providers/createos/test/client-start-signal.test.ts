import { CreateosError } from "@paperclipai/errors";
import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import {
  scriptedClient as client,
  GET_SANDBOX as get,
  scriptedServerForTest as server,
} from "./support/scripted-client.js";
import { sendJson } from "./support/scripted-server.js";

// A sandbox create at shutdown: one still waiting for its start (the pacer) must never be sent,
// one already sent must be read to its answer (its sandbox may exist). `startSignal` stops
// the first only; `signal` stops both.

const CREATE = {
  method: "POST",
  path: "/sandboxes",
  json: { shape: "s-1vcpu-1gb" },
  operation: "sandbox lifecycle",
  idempotent: false,
} as const;

const SANDBOX = { status: "success", data: { id: "sbx_1", status: "creating" } };

const stopping = () => new CreateosError("ERR_CREATEOS_SHUTTING_DOWN", "CreateOS plugin is shutting down.");

describe("a request's start signal", () => {
  it("stops a request still waiting for its start: nothing is sent", async () => {
    const s = await server((_req, res) => sendJson(res, 200, SANDBOX));
    // One start a minute: the GET takes it, the create waits for the next.
    const c = client(s.url, { rateLimit: { burst: 1, refillPerMinute: 1 } });
    await c.json(get);
    const start = new AbortController();
    const create = caught(
      c.json({ ...CREATE, signal: new AbortController().signal, startSignal: start.signal }),
    );

    start.abort(stopping());

    expect((await create).code).toBe("ERR_CREATEOS_SHUTTING_DOWN");
    expect(s.seen.map((request) => request.method)).toEqual(["GET"]);
  });

  it("does not stop a request already sent: its answer is read", async () => {
    let answer!: () => void;
    const s = await server((_req, res) => {
      answer = () => sendJson(res, 200, SANDBOX);
    });
    const start = new AbortController();
    const create = client(s.url).json({
      ...CREATE,
      signal: new AbortController().signal,
      startSignal: start.signal,
    });
    await expect.poll(() => s.seen.length).toBe(1);

    start.abort(stopping());
    answer();

    expect((await create).data).toEqual(SANDBOX.data);
  });
});
