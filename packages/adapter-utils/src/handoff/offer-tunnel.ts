import type { Socket } from "node:net";
import { HANDOFF_DRAINED_MARK } from "./handoff-wire.js";
import type { TunnelCourier } from "./tunnel-courier.js";

const EMPTY = Buffer.alloc(0);

export interface OfferTunnelInput {
  readonly courier: TunnelCourier;
  /** The bridge connection's id (16 hex digits), as the host named it on relay.sock. */
  readonly id: string;
  /** The proxy connection from the bridge, after the "200 Connection Established". */
  readonly client: Socket;
  /** Connected, and no longer read by the host (paused before the offer). */
  readonly upstream: Socket;
  readonly idleMs: number;
  /** The bridge took the tunnel: the host holds only the proxy connection, as its lifeline. */
  onHandedOff(): void;
  /** The bridge could not take it: the host relays the tunnel itself from here. */
  relayInstead(): void;
}

/**
 * Hands an established tunnel to the native bridge (see docs/adapter-utils/handoff.md). While the offer
 * is out, the host forwards what the bridge still sends to the upstream socket and
 * reads nothing from upstream, and the idle limit is the host's. Two things must both
 * happen before the host writes the drained mark: the courier reports that the bridge
 * took the socket, and the bridge ends the proxy connection's write side (it sends
 * nothing more; an end that came first, from the program's own half-close, counts
 * too, as the bridge carries that end over). Then the host flushes what it forwarded,
 * writes the mark and closes its own copy of the upstream socket (close, never
 * shutdown: the bridge's copy carries the connection on). A refusal before the mark
 * puts the host relay in place, the program's end included.
 */
export function offerTunnel(input: OfferTunnelInput): void {
  const { client, upstream } = input;
  let state: "offered" | "draining" | "handed-off" | "relaying" = "offered";
  let taken = false;
  let bridgeEnded = false;
  let forget = () => {};
  const forward = (chunk: Buffer) => {
    if (!upstream.write(chunk)) client.pause();
  };
  const resumeClient = () => client.resume();
  const stopForwarding = () => {
    client.off("data", forward);
    upstream.off("drain", resumeClient);
  };
  const abandon = () => {
    client.destroy();
    upstream.destroy();
  };
  const stopIdleTimer = () => {
    client.setTimeout(0);
    client.off("timeout", abandon);
  };
  const onUpstreamClose = () => {
    if (state !== "handed-off") client.destroy();
  };
  const onClientClose = () => {
    forget();
    if (state !== "relaying") upstream.destroy();
  };
  const drain = () => {
    state = "draining";
    stopForwarding();
    // The callback of an empty write runs once everything written before it is flushed.
    upstream.write(EMPTY, (error) => {
      if (error || client.destroyed) {
        abandon();
        return;
      }
      state = "handed-off";
      stopIdleTimer();
      client.write(HANDOFF_DRAINED_MARK);
      upstream.off("close", onUpstreamClose);
      upstream.destroy();
      input.onHandedOff();
    });
  };
  const onBridgeEnded = () => {
    bridgeEnded = true;
    if (state === "offered" && taken) drain();
  };
  const onTaken = () => {
    taken = true;
    if (state === "offered" && bridgeEnded) drain();
  };
  const fallBack = () => {
    if (state !== "offered" || taken) return;
    state = "relaying";
    stopIdleTimer();
    stopForwarding();
    forget();
    client.off("end", onBridgeEnded);
    upstream.off("close", onUpstreamClose);
    client.off("close", onClientClose);
    input.relayInstead();
    // The program's end reached the host while the offer was out: pass it on, after what it sent.
    if (bridgeEnded) upstream.end();
    else if (!upstream.writableNeedDrain) client.resume();
  };

  client.setTimeout(input.idleMs, abandon);
  client.on("data", forward);
  upstream.on("drain", resumeClient);
  client.once("end", onBridgeEnded);
  upstream.once("close", onUpstreamClose);
  client.once("close", onClientClose);
  forget = input.courier.offer(
    { id: input.id, socket: upstream, drainOffset: client.bytesWritten, idleMs: input.idleMs },
    // The bridge ends the proxy connection's read side for the drain, so its close is not
    // seen here: the courier's report of the tunnel's end closes the lifeline.
    { taken: onTaken, refused: fallBack, closed: () => client.destroy() },
  );
}
