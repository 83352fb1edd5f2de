import { afterEach, expect, it } from "vitest";
import { CreateosClient } from "../src/client/createos-client.js";
import { execute } from "../src/execute/execute.js";
import { sendJson, startScriptedServer } from "./support/scripted-server.js";

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** Blocks this thread (no event loop turn) without spinning a CPU. */
function blockEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

it("a blocked event loop (GC pause, long task, descheduled process) is not a stalled connection", async () => {
  const stallTimeoutMs = 100;
  let blocked = false;
  const s = await startScriptedServer((req, res) => {
    const url = new URL(req.url ?? "", "http://x");
    if (url.pathname.endsWith("/processes"))
      return sendJson(res, 200, { status: "success", data: { process_id: "p1" } });
    if (url.pathname.endsWith("/connect")) {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      let beats = 0;
      const beat = setInterval(() => {
        res.write('{"type":"heartbeat"}\n');
        // After the third heartbeat is read, the loop stops for three stall windows; the
        // heartbeats resume as soon as it runs again.
        if (++beats === 3) {
          setImmediate(() => {
            blockEventLoop(3 * stallTimeoutMs);
            blocked = true;
          });
        }
      }, 20);
      const finish = setTimeout(() => {
        clearInterval(beat);
        const frame = {
          type: "data",
          seq: 1,
          stream: "stdout",
          data_base64: Buffer.from("done\n").toString("base64"),
        };
        res.end(`${JSON.stringify(frame)}\n{"type":"exit","exit_code":0}\n`);
      }, 6 * stallTimeoutMs);
      res.on("close", () => {
        clearInterval(beat);
        clearTimeout(finish);
      });
      return;
    }
    if (url.pathname.endsWith("/wait"))
      return sendJson(res, 200, { status: "success", data: { exit_code: 0, output: { newest_seq: 1 } } });
    if (req.method === "DELETE")
      return sendJson(res, 200, { status: "success", data: { tree_exited: true } });
    sendJson(res, 200, { status: "success", data: {} });
  });
  closers.push(s.close);
  const client = new CreateosClient({
    apiUrl: `${s.url}/v1`,
    apiKey: "test-key-123",
    rateLimit: { burst: 1_000, refillPerMinute: 600_000 },
    backoff: { baseMs: 5, capMs: 20, maxRetryAfterMs: 1_200 },
  });
  const result = await execute(
    client,
    { sandboxId: "sbx_1", command: "sleep", args: ["600"] },
    { reconnectAttempts: 2, waitProbeMs: 0, stallTimeoutMs },
  );
  expect(blocked).toBe(true);
  expect(result).toMatchObject({ exitCode: 0, stdout: "done\n" });
  expect(result.metadata).toMatchObject({ lastSeq: 1, connections: 1, reconnects: 0 });
  expect(s.seen.filter((r) => r.url.includes("/connect"))).toHaveLength(1);
});
