import type { Socket } from "node:net";
import { HANDOFF_DRAINED_MARK } from "./handoff-wire.js";
import type { TunnelCourier } from "./tunnel-courier.js";

const EMPTY = Buffer.alloc(0);

export interface OfferTunnelInput {
  readonly courier: TunnelCourier;
  /** The bridge connection's id (16 hex digits), as the host named it on relay.sock. */
  readonly id: string;
  /** The proxy connection from the bridge; the "200 Connection Established" is written. */
  readonly client: Socket;
  /** Connected and never read by the host (paused before it connected). */
  readonly upstream: Socket;
  readonly idleMs: number;
  /** The bridge took the tunnel: the host holds only the proxy connection, as its lifeline. */
  onHandedOff(): void;
  /** The bridge could not take it: the host relays the tunnel itself from here. */
  relayInstead(): void;
}

/**
 * Hands an established tunnel to the native bridge (see ./README.md). While the offer
 * is out, the host forwards what the bridge still sends to the upstream socket and
 * reads nothing from upstream. The bridge's end-of-stream on the proxy connection says
 * it sends nothing more: the host flushes what it forwarded, writes the drained mark
 * and closes its own copy of the upstream socket (close, never shutdown: the bridge's
 * copy carries the connection on). A refusal before that puts the host relay in place.
 */
export function offerTunnel(input: OfferTunnelInput): void {
  const { client, upstream } = input;
  let state: "offered" | "draining" | "handed-off" | "relaying" = "offered";
  let forget = () => {};
  const forward = (chunk: Buffer) => {
    if (!upstream.write(chunk)) client.pause();
  };
  const resumeClient = () => client.resume();
  const stopForwarding = () => {
    client.off("data", forward);
    upstream.off("drain", resumeClient);
  };
  const onUpstreamClose = () => {
    if (state !== "handed-off") client.destroy();
  };
  const onClientClose = () => {
    forget();
    if (state !== "relaying") upstream.destroy();
  };
  const onBridgeDone = () => {
    if (state !== "offered") return;
    state = "draining";
    stopForwarding();
    // The callback of an empty write runs once everything written before it is flushed.
    upstream.write(EMPTY, (error) => {
      if (error || client.destroyed) {
        client.destroy();
        upstream.destroy();
        return;
      }
      state = "handed-off";
      client.write(HANDOFF_DRAINED_MARK);
      upstream.off("close", onUpstreamClose);
      upstream.destroy();
      input.onHandedOff();
    });
  };
  const fallBack = () => {
    if (state !== "offered") return;
    state = "relaying";
    stopForwarding();
    forget();
    client.off("end", onBridgeDone);
    upstream.off("close", onUpstreamClose);
    client.off("close", onClientClose);
    input.relayInstead();
    if (!upstream.writableNeedDrain) client.resume();
  };

  client.on("data", forward);
  upstream.on("drain", resumeClient);
  client.once("end", onBridgeDone);
  upstream.once("close", onUpstreamClose);
  client.once("close", onClientClose);
  forget = input.courier.offer(
    { id: input.id, socket: upstream, drainOffset: client.bytesWritten, idleMs: input.idleMs },
    // The bridge ended the proxy connection's read side for the drain, so its close is
    // not seen here: the courier's report of the tunnel's end closes the lifeline.
    { refused: fallBack, closed: () => client.destroy() },
  );
}
