import type { EmulatorAddress } from "./plugin-harness.js";
import { startScriptedServer } from "./scripted-server.js";

/** Headers not forwarded: the proxy's own connection sets them. */
const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

export interface GatedCreateProxy extends EmulatorAddress {
  /** Settles once a sandbox create reached the emulator (the sandbox exists from then on). */
  readonly createArrived: Promise<void>;
  /** Lets the held create answer reach the plugin. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of the emulator that forwards every request at once but holds the
 * answer to `POST /sandboxes` until the test calls `release()`: the sandbox exists upstream
 * while the plugin is still waiting for its id. Plain JSON calls only (no streams).
 */
export async function startGatedCreateProxy(target: EmulatorAddress): Promise<GatedCreateProxy> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived!: () => void;
  const createArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = await startScriptedServer((req, res, body) => {
    const isCreate = req.method === "POST" && /\/sandboxes$/.test((req.url ?? "").split("?")[0] ?? "");
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string" && !HOP_HEADERS.has(name)) headers[name] = value;
    }
    void (async () => {
      try {
        const answer = await fetch(`${target.url}${req.url ?? "/"}`, {
          method: req.method ?? "GET",
          headers,
          ...(body === "" ? {} : { body }),
        });
        const text = await answer.text();
        if (isCreate) {
          arrived();
          await gate;
        }
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" });
        res.end(text);
      } catch {
        res.destroy();
      }
    })();
  });
  return { url: server.url, apiKey: target.apiKey, createArrived, release, close: server.close };
}
