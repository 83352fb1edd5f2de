import { forwardToEmulator } from "./emulator-forwarding.js";
import type { EmulatorAddress } from "./plugin-harness.js";
import { startScriptedServer } from "./scripted-server.js";

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
    void (async () => {
      try {
        const answer = await forwardToEmulator(target, req, body);
        if (isCreate) {
          arrived();
          await gate;
        }
        res.writeHead(answer.status, { "content-type": answer.contentType });
        res.end(answer.text);
      } catch {
        res.destroy();
      }
    })();
  });
  return { url: server.url, apiKey: target.apiKey, createArrived, release, close: server.close };
}
