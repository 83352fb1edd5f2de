import * as tar from "tar";
import { forwardToEmulator } from "./emulator-forwarding.js";
import type { EmulatorAddress } from "./plugin-harness.js";
import { startScriptedServer } from "./scripted-server.js";

export interface TricklingFilesProxy extends EmulatorAddress {
  /** Settles once a download was answered and every download answered so far has closed. */
  downloadsClosed(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of the emulator that forwards every JSON call but answers each
 * `GET /files` itself, as a sandbox's file that never ends: a tar header, then one zero byte
 * every `intervalMs` for as long as the connection stays open. Plain JSON calls only otherwise.
 */
export async function startTricklingFilesProxy(
  target: EmulatorAddress,
  intervalMs = 50,
): Promise<TricklingFilesProxy> {
  let open = 0;
  let answered = false;
  let settle: (() => void) | undefined;
  const allClosed = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const header = new tar.Header({ path: "slow.bin", type: "File", mode: 0o644, size: 1024 * 1024 });
  header.encode();
  const server = await startScriptedServer((req, res, body) => {
    if (req.method === "GET" && /\/files$/.test((req.url ?? "").split("?")[0] ?? "")) {
      answered = true;
      open += 1;
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.write(header.block);
      const timer = setInterval(() => res.write(Buffer.alloc(1)), intervalMs);
      res.once("close", () => {
        clearInterval(timer);
        open -= 1;
        if (open === 0) settle?.();
      });
      return;
    }
    void (async () => {
      try {
        const answer = await forwardToEmulator(target, req, body);
        res.writeHead(answer.status, { "content-type": answer.contentType });
        res.end(answer.text);
      } catch {
        res.destroy();
      }
    })();
  });
  return {
    url: server.url,
    apiKey: target.apiKey,
    downloadsClosed: async () => {
      if (!answered) throw new Error("no download was answered");
      await allClosed;
    },
    close: server.close,
  };
}
