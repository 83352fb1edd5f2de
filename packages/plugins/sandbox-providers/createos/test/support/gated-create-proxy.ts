import { type GatedProxy, requestLine, startGatedProxy } from "./gated-proxy.js";
import type { EmulatorAddress } from "./plugin-harness.js";

export interface GatedCreateProxy extends GatedProxy {
  /** Settles once a sandbox create reached the emulator (the sandbox exists from then on). */
  readonly createArrived: Promise<void>;
}

/**
 * A gated proxy (`startGatedProxy`) that holds the answer to `POST /sandboxes`: the sandbox
 * exists upstream while the plugin is still waiting for its id.
 */
export async function startGatedCreateProxy(target: EmulatorAddress): Promise<GatedCreateProxy> {
  const proxy = await startGatedProxy(target, (req) => {
    const { method, path } = requestLine(req);
    return method === "POST" && /\/sandboxes$/.test(path);
  });
  return { ...proxy, createArrived: proxy.arrived };
}
