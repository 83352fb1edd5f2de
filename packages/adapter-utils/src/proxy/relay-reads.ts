import type { OnReadOpts, Socket } from "node:net";

/**
 * `onread` options for `net.connect` that relay what the socket reads straight
 * into `to`: each read lands in a buffer owned by this leg (no allocation and
 * no stream machinery per chunk, unlike `pipe`). A buffer is reused only when
 * `to` took the whole chunk synchronously; while a write still references it a
 * fresh one is taken. The buffer starts at 2 KiB, a slice of Node's shared
 * buffer pool (no allocation of its own per tunnel; idle tunnels stay small),
 * and doubles while reads fill it, up to 256 KiB. Backpressure: reading stops when
 * `to` is full and resumes on its `drain`, unless `from` then returns nothing (the
 * host proxy holds a tunnel it is handing off that way). `onRelayed` hears the size
 * of every chunk passed on. The reading socket still emits `end`, `close` and
 * `error` as usual.
 *
 * The Node bridge (`bridge/node-bridge/`) relays with it too, so this module imports
 * nothing but Node's types: the bridge's bundle stays free of the proxy.
 */
export function relayReadsInto(
  to: Socket,
  from: () => Socket | null,
  onRelayed?: (bytes: number) => void,
): OnReadOpts {
  const maxBytes = 256 * 1024;
  let size = 2 * 1024;
  let buffer = Buffer.allocUnsafe(0);
  let renew = true;
  const resume = () => from()?.resume();
  return {
    buffer: () => {
      if (renew) {
        buffer = Buffer.allocUnsafe(size);
        renew = false;
      }
      return buffer;
    },
    callback: (bytes, chunk) => {
      if (to.destroyed) return false;
      const more = to.write(chunk.subarray(0, bytes));
      if (to.writableLength > 0) renew = true;
      onRelayed?.(bytes);
      if (bytes === chunk.length && size < maxBytes) {
        size *= 2;
        renew = true;
      }
      if (more) return true;
      to.once("drain", resume);
      return false;
    },
  };
}

/**
 * The other direction of a tunnel leg pair, for a socket that cannot take
 * `onread` (an accepted one): `from`'s chunks are written to `to`, reading
 * pauses while `to` is full, and `from`'s FIN ends `to`. Cheaper to set up per
 * connection than `pipe()`. Returns a function that stops forwarding. The Node
 * bridge uses it too, like `relayReadsInto`.
 */
export function forwardInto(from: Socket, to: Socket, onRelayed?: (bytes: number) => void): () => void {
  const onData = (chunk: Buffer) => {
    if (!to.write(chunk)) from.pause();
    onRelayed?.(chunk.length);
  };
  const onDrain = () => from.resume();
  const onEnd = () => {
    if (!to.writableEnded && !to.destroyed) to.end();
  };
  from.on("data", onData);
  to.on("drain", onDrain);
  from.on("end", onEnd);
  return () => {
    from.off("data", onData);
    to.off("drain", onDrain);
    from.off("end", onEnd);
  };
}
