import type WebSocket from "ws";
import type { ParsedFlags } from "../cli/flags.js";
import type { RunnerdIo } from "../cli/runnerd-io.js";
import { readDurableOptions } from "./durable-options.js";
import { openDurableStore } from "./state/durable-store.js";
import { ticketMissing } from "./transport/bootstrap-ticket.js";
import { createDialer, type Dialer } from "./transport/dial.js";

/**
 * Durable mode: the runner dials the Paperclip server (or accepts its
 * connection), authenticates with the one-time ticket, and serves one run over
 * the encrypted, acknowledged, resumable PRP channel until the server ends the
 * command stream. A transport failure throws a coded error with the state
 * directory intact; the server restarts the runner with a fresh ticket and it
 * resumes from there.
 */
export async function runDurableMode(
  flags: ParsedFlags,
  io: RunnerdIo,
  ticket: string | null,
): Promise<number> {
  const options = readDurableOptions(flags);
  if (ticket === null) throw ticketMissing();
  const log = (line: string): void => {
    io.stderr.write(`paperclip-runnerd: ${line}\n`);
  };
  if (options.ignoredProviderFlags.length > 0) {
    log(
      `the acpx provider is not built into this runner; ignored: ${options.ignoredProviderFlags.join(", ")}`,
    );
  }
  const dialer = await createDialer(options.endpoint);
  // The first connection opens while the state directory is recovered: nothing is sent on it
  // (the handshake waits for the store), only the server's upgrade overlaps the disk work.
  const dial = dialAheadOnce(dialer);
  try {
    const opening = openDurableStore(options.stateDir, options.identity, {
      version: options.runnerVersion,
      digest: options.runnerDigest,
    });
    // The engines' modules (the Codex executor, the scripted harness, the runner's loop) are
    // evaluated while the server upgrades the connection and the disk recovers the state.
    const serving = import("./serve-durable-run.js");
    // Awaited below, once the store is open (or closed again when it failed to open).
    serving.catch(() => undefined);
    const store = await opening;
    try {
      const { serveRun } = await serving;
      if (store.recovered !== null) {
        log(`resuming durable state (${store.recovered.indeterminate.length} indeterminate command(s))`);
      }
      await serveRun({ options, store, dial: dial.next, log }, ticket);
      return 0;
    } finally {
      await store.close();
    }
  } finally {
    dial.discard();
    await dialer.close();
  }
}

/** A dialer whose first connection is already under way; `discard` closes it when nobody took it. */
function dialAheadOnce(dialer: Dialer): { next: () => Promise<WebSocket>; discard: () => void } {
  let ahead: Promise<WebSocket> | null = dialer.next();
  ahead.catch(() => undefined);
  return {
    next: () => {
      const next = ahead ?? dialer.next();
      ahead = null;
      return next;
    },
    discard: () => {
      void ahead?.then(
        (socket) => socket.terminate(),
        () => undefined,
      );
      ahead = null;
    },
  };
}
