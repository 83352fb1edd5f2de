import type { Socket } from "node:net";

/** What Node's HTTP parser hook returns to stop at once: llhttp's "upgrade, skip the rest". */
const STOP_PARSING = 2;

type OnIncoming = (...args: unknown[]) => unknown;

/**
 * Makes Node's HTTP server stop parsing `socket`'s current read at the first request head
 * for which `stop()` is true, before it makes that request's objects.
 *
 * Node parses a whole read (64 KiB) in one go and makes a request and an answer object for
 * every pipelined request in it, a connection closed halfway through included: they are
 * freed only when the closed socket's `close` event comes, after every other socket that
 * was readable in the same turn has been parsed too. 300 connections that each wrote 64 KiB
 * of tiny requests held 600 MiB at once that way, closed or not. The server calls its
 * per-connection hook `parser.onIncoming` for each head; what it returns goes back to
 * llhttp, and 2 ends the read there ("an upgrade: the rest is not HTTP"), which Node
 * answers by handing the rest to no one once the socket is not an upgrade. Both names are
 * Node internals, unchanged from Node 12 to 24 and checked by
 * `test/pipelined-unread-answers.test.ts` on every Node the package is tested on; where
 * they are missing nothing is wrapped, and the `request` handler's bound still closes the
 * connection, only later.
 */
export function stopParsingWhen(socket: Socket, stop: () => boolean): void {
  const parser = (socket as Socket & { parser?: { onIncoming?: OnIncoming | null } }).parser;
  const onIncoming = parser?.onIncoming;
  if (!parser || typeof onIncoming !== "function") return;
  parser.onIncoming = (...args: unknown[]) => (stop() ? STOP_PARSING : onIncoming(...args));
}
