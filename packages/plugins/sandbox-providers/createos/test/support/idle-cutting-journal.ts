import type { ServerResponse } from "node:http";
import { sendJson, startScriptedServer } from "./scripted-server.js";

export interface IdleCuttingJournalOptions {
  /** Connections cut before the process exits; the next one sees the exit. */
  readonly cuts: number;
  /** Heartbeat interval of a cut connection. */
  readonly heartbeatMs: number;
  /** How long a cut connection lives (heartbeats all along) before the proxy cuts it. */
  readonly cutAfterMs: number;
  /** Connections (1-based) that go silent after one heartbeat until the client gives up on them. */
  readonly silentConnections?: readonly number[];
}

const OUTPUT = "finally\n";

/**
 * A process that prints `finally\n` as it exits, behind a proxy that cuts idle streams. Its
 * journal is a real one: the frame is seq 1 however often it is read, a connect replays only
 * what lies past `after`, and `wait` answers from the process's state, never from how many
 * requests came before (a client that skips a `wait` after a stall gets the same answers).
 */
export async function startIdleCuttingJournal(options: IdleCuttingJournalOptions) {
  const journal: string[] = [];
  let exited = false;
  let connects = 0;
  let silentGivenUp = 0;

  function serveCut(res: ServerResponse, silent: boolean): void {
    res.write('{"type":"heartbeat"}\n');
    if (silent) {
      // Ended only by the client's watchdog (or the server's close); counted when the client aborts.
      res.on("close", () => {
        if (!res.writableEnded) silentGivenUp++;
      });
      return;
    }
    const beat = setInterval(() => res.write('{"type":"heartbeat"}\n'), options.heartbeatMs);
    const cut = setTimeout(() => {
      clearInterval(beat);
      res.end();
    }, options.cutAfterMs);
    res.on("close", () => {
      clearInterval(beat);
      clearTimeout(cut);
    });
  }

  const s = await startScriptedServer((req, res) => {
    const url = new URL(req.url ?? "", "http://x");
    if (url.pathname.endsWith("/processes"))
      return sendJson(res, 200, { status: "success", data: { process_id: "p1" } });
    if (url.pathname.endsWith("/connect")) {
      connects++;
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      if (connects > options.cuts && !exited) {
        journal.push(
          JSON.stringify({
            type: "data",
            seq: 1,
            stream: "stdout",
            data_base64: Buffer.from(OUTPUT).toString("base64"),
          }),
        );
        exited = true;
      }
      if (!exited) return serveCut(res, options.silentConnections?.includes(connects) ?? false);
      const after = Number(url.searchParams.get("after"));
      const replay = journal.slice(after).map((frame) => `${frame}\n`);
      res.end(`${replay.join("")}{"type":"exit","exit_code":0}\n`);
      return;
    }
    if (url.pathname.endsWith("/wait")) {
      return exited
        ? sendJson(res, 200, {
            status: "success",
            data: { exit_code: 0, output: { newest_seq: journal.length } },
          })
        : sendJson(res, 408, "still running");
    }
    if (req.method === "DELETE")
      return sendJson(res, 200, { status: "success", data: { tree_exited: true } });
    sendJson(res, 200, { status: "success", data: {} });
  });
  return {
    ...s,
    /** Silent connections the client aborted on its own. */
    get silentGivenUp(): number {
      return silentGivenUp;
    },
  };
}
