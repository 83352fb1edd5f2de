import { describe, expect, it } from "vitest";
import { sendNodeRequest } from "../src/client/node-request.js";
import { nodeStreamBody } from "../src/client/node-stream-body.js";
import { scriptedServerForTest as server } from "./support/scripted-client.js";

const CUT = new Error("cut");

async function bodyOf(url: string, signal = new AbortController().signal) {
  const response = await sendNodeRequest(url, { method: "GET", headers: {}, body: undefined, signal });
  return nodeStreamBody(response, () => CUT);
}

describe("nodeStreamBody (node:http response, pumped)", () => {
  it("hands every chunk over in order and resolves true at the end", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200);
      res.write("one\n");
      setTimeout(() => res.end("two\n"), 20);
    });
    const seen: string[] = [];
    const ended = await (await bodyOf(s.url)).pump((chunk) => {
      seen.push(Buffer.from(chunk).toString());
      return false;
    }, new AbortController().signal);
    expect(ended).toBe(true);
    expect(seen.join("")).toBe("one\ntwo\n");
  });

  it("stops when the handler says so, and a body that then ends frees its socket for the next request", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200);
      res.end("exit\n");
    });
    const ports: number[] = [];
    for (let i = 0; i < 2; i++) {
      const response = await sendNodeRequest(s.url, {
        method: "GET",
        headers: {},
        body: undefined,
        signal: new AbortController().signal,
      });
      ports.push(response.socket.localPort ?? -1);
      const ended = await nodeStreamBody(response, () => CUT).pump(() => true, new AbortController().signal);
      expect(ended).toBe(false);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(ports[1]).toBe(ports[0]);
  });

  it("fails with toError() when the connection is cut before the body's end", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200);
      res.write("partial\n");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const seen: string[] = [];
    const pumping = (await bodyOf(s.url)).pump((chunk) => {
      seen.push(Buffer.from(chunk).toString());
      return false;
    }, new AbortController().signal);
    await expect(pumping).rejects.toBe(CUT);
    expect(seen).toEqual(["partial\n"]);
  });

  it("ends a body that sends nothing more when the signal aborts, with the signal's reason", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200);
      res.write("one\n");
    });
    const connection = new AbortController();
    const stalled = Symbol("stalled");
    const pumping = (await bodyOf(s.url)).pump(() => {
      // The next read is now pending on a body that never answers.
      setTimeout(() => connection.abort(stalled), 20);
      return false;
    }, connection.signal);
    await expect(pumping).rejects.toBe(stalled);
  });

  it("rejects with the handler's error, and at once when the signal was already aborted", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200);
      res.write("one\n");
    });
    const broken = new Error("handler");
    await expect(
      (await bodyOf(s.url)).pump(() => {
        throw broken;
      }, new AbortController().signal),
    ).rejects.toBe(broken);
    await expect((await bodyOf(s.url)).pump(() => false, AbortSignal.abort("gone"))).rejects.toBe("gone");
  });
});
