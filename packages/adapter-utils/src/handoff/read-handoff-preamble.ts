import type { Socket } from "node:net";
import { matchHandoffPreamble } from "./handoff-preamble.js";

/**
 * Reads the start of a proxy connection to learn whether a bridge's preamble opens
 * it, then gives the connection on with the preamble removed: the bytes after it go
 * back in front of the stream (`unshift`) while the socket is paused, and it resumes
 * only after `done` has attached the HTTP server, so they reach its parser first.
 * A connection that ends, fails or says nothing within `timeoutMs` is destroyed.
 */
export function readHandoffPreamble(
  socket: Socket,
  timeoutMs: number,
  done: (id: string | undefined) => void,
): void {
  let seen: Buffer = Buffer.alloc(0);
  const finish = (id: string | undefined, rest: Buffer) => {
    clearTimeout(timer);
    socket.off("data", onData);
    socket.off("end", abandon);
    socket.pause();
    if (rest.length > 0) socket.unshift(rest);
    done(id);
    socket.resume();
  };
  const abandon = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const onData = (chunk: Buffer) => {
    seen = seen.length === 0 ? chunk : Buffer.concat([seen, chunk]);
    const match = matchHandoffPreamble(seen);
    if (match.status === "partial") return;
    if (match.status === "handoff") finish(match.id, match.rest);
    else finish(undefined, seen);
  };
  const timer = setTimeout(abandon, timeoutMs);
  socket.on("data", onData);
  socket.once("end", abandon);
  socket.once("close", () => clearTimeout(timer));
}
