import type { IncomingMessage } from "node:http";
import { forwardToEmulator } from "./emulator-forwarding.js";
import type { EmulatorAddress } from "./plugin-harness.js";
import { startScriptedServer } from "./scripted-server.js";

export interface GatedProxy extends EmulatorAddress {
  /** Settles once a gated request reached the emulator (it has acted on it from then on). */
  readonly arrived: Promise<void>;
  /** Lets the held answers reach the plugin. */
  release(): void;
  close(): Promise<void>;
}

/** The request's method and its path without the query. */
export function requestLine(req: IncomingMessage): { method: string; path: string } {
  return { method: req.method ?? "", path: (req.url ?? "").split("?")[0] ?? "" };
}

/**
 * A loopback proxy in front of the emulator that forwards every request at once but holds the
 * answers to the requests `gated` picks until the test calls `release()`: the emulator has
 * acted while the plugin is still waiting. Plain JSON calls only (no streams).
 */
export async function startGatedProxy(
  target: EmulatorAddress,
  gated: (req: IncomingMessage) => boolean,
): Promise<GatedProxy> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reached!: () => void;
  const arrived = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const server = await startScriptedServer((req, res, body) => {
    const held = gated(req);
    void (async () => {
      try {
        const answer = await forwardToEmulator(target, req, body);
        if (held) {
          reached();
          await gate;
        }
        res.writeHead(answer.status, { "content-type": answer.contentType });
        res.end(answer.text);
      } catch {
        res.destroy();
      }
    })();
  });
  return { url: server.url, apiKey: target.apiKey, arrived, release, close: server.close };
}
