import { Writable } from "node:stream";
import { RunLedger } from "../../src/local/run-ledger.js";
import type { StateStore } from "../../src/state/state-store.js";

/**
 * A ledger whose controller output is recorded, one entry per write. `holdWrites` keeps each
 * write's callback for the test to call (a controller that has not taken the write yet).
 */
export function recordingLedger(
  store: StateStore,
  options: { holdWrites?: boolean } = {},
): { ledger: RunLedger; written: string[]; releaseLastWrite: () => void } {
  const written: string[] = [];
  let release: () => void = () => undefined;
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written.push(String(chunk));
      if (options.holdWrites) release = callback;
      else callback();
    },
  });
  const ledger = new RunLedger(store, stdout, {
    onBacklog: () => undefined,
    fail: (error) => {
      throw error;
    },
  });
  return { ledger, written, releaseLastWrite: () => release() };
}
