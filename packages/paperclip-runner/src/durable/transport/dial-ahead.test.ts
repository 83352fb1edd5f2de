import { describe, expect, it } from "vitest";
import type WebSocket from "ws";
import type { Dialer } from "./dial.js";
import { dialAhead } from "./dial-ahead.js";

/** A dialer whose dials stay open until the test settles them; it notes the signal each was given. */
function heldDialer(): { readonly dialer: Dialer; readonly signals: (AbortSignal | undefined)[] } {
  const signals: (AbortSignal | undefined)[] = [];
  const dialer: Dialer = {
    next: (signal) => {
      signals.push(signal);
      return new Promise<WebSocket>((_resolve, reject) => {
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    },
    close: async () => undefined,
  };
  return { dialer, signals };
}

describe("dialAhead", () => {
  it("withdraws the dial started ahead when its taker's signal aborts", async () => {
    const { dialer, signals } = heldDialer();
    const dial = dialAhead(dialer);
    dial.start();
    const taker = new AbortController();
    const taken = dial.next(taker.signal);
    taker.abort(new Error("the link closed"));
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
    await expect(taken).rejects.toThrow("the link closed");
  });

  it("withdraws the dial started ahead that nobody took, and resolves once it has ended", async () => {
    const { dialer, signals } = heldDialer();
    const dial = dialAhead(dialer);
    dial.start();
    await dial.discard();
    expect(signals[0]?.aborted).toBe(true);
  });

  it("dials afresh, with the taker's signal, once the one ahead was taken", async () => {
    const { dialer, signals } = heldDialer();
    const dial = dialAhead(dialer);
    const taker = new AbortController();
    const fresh = dial.next(taker.signal);
    expect(signals).toEqual([taker.signal]);
    taker.abort(new Error("the link closed"));
    await expect(fresh).rejects.toThrow("the link closed");
  });
});
