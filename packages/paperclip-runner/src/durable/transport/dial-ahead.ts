import type WebSocket from "ws";
import type { Dialer } from "./dial.js";

/**
 * A dialer whose first connection may be started ahead (`start`); `discard` closes it when nobody
 * took it, and resolves once it is closed. Taken, it is withdrawn as the taker's own dial would be.
 */
export function dialAhead(dialer: Dialer): {
  start: () => void;
  next: (signal?: AbortSignal) => Promise<WebSocket>;
  discard: () => Promise<void>;
} {
  let ahead: Promise<WebSocket> | null = null;
  const withdraw = new AbortController();
  return {
    start: () => {
      ahead = dialer.next(withdraw.signal);
      ahead.catch(() => undefined);
    },
    next: (signal) => {
      const taken = ahead;
      ahead = null;
      if (taken === null) return dialer.next(signal);
      if (signal?.aborted) withdraw.abort(signal.reason);
      else signal?.addEventListener("abort", () => withdraw.abort(signal.reason), { once: true });
      return taken;
    },
    discard: async () => {
      const left = ahead;
      ahead = null;
      if (left === null) return;
      // Still opening when the run ended: withdrawn now, not left open until the handshake's timeout.
      withdraw.abort();
      (await left.catch(() => null))?.terminate();
    },
  };
}
