import type { Socket } from "node:net";
import { HANDOFF_DRAINED_MARK } from "./handoff-wire.js";
import { mayFallBack, type OfferProgress, readyToDrain } from "./offer-progress.js";
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
  new TunnelOffer(input).start();
}

/** One offer's listeners and progress; listeners are fields so the same function is removed as was added. */
class TunnelOffer {
  private progress: OfferProgress = { phase: "offered", taken: false, bridgeEnded: false };
  private forget = () => {};
  private readonly client: Socket;
  private readonly upstream: Socket;

  constructor(private readonly input: OfferTunnelInput) {
    this.client = input.client;
    this.upstream = input.upstream;
  }

  start(): void {
    const { client, upstream, input } = this;
    client.setTimeout(input.idleMs, this.abandon);
    client.on("data", this.forward);
    upstream.on("drain", this.resumeClient);
    client.once("end", this.onBridgeEnded);
    upstream.once("close", this.onUpstreamClose);
    client.once("close", this.onClientClose);
    this.forget = input.courier.offer(
      { id: input.id, socket: upstream, drainOffset: client.bytesWritten, idleMs: input.idleMs },
      // The bridge ends the proxy connection's read side for the drain, so its close is not
      // seen here: the courier's report of the tunnel's end closes the lifeline.
      { taken: this.onTaken, refused: this.fallBack, closed: () => client.destroy() },
    );
  }

  private readonly forward = (chunk: Buffer): void => {
    if (!this.upstream.write(chunk)) this.client.pause();
  };
  private readonly resumeClient = (): void => {
    this.client.resume();
  };
  private readonly abandon = (): void => {
    this.client.destroy();
    this.upstream.destroy();
  };
  private readonly onUpstreamClose = (): void => {
    if (this.progress.phase !== "handed-off") this.client.destroy();
  };
  private readonly onClientClose = (): void => {
    this.forget();
    if (this.progress.phase !== "relaying") this.upstream.destroy();
  };
  private readonly onBridgeEnded = (): void => {
    this.progress = { ...this.progress, bridgeEnded: true };
    if (readyToDrain(this.progress)) this.drain();
  };
  private readonly onTaken = (): void => {
    this.progress = { ...this.progress, taken: true };
    if (readyToDrain(this.progress)) this.drain();
  };

  private stopForwarding(): void {
    this.client.off("data", this.forward);
    this.upstream.off("drain", this.resumeClient);
  }

  private stopIdleTimer(): void {
    this.client.setTimeout(0);
    this.client.off("timeout", this.abandon);
  }

  /** Flushes what the host forwarded, then writes the mark and closes the host's copy of upstream. */
  private drain(): void {
    this.progress = { ...this.progress, phase: "draining" };
    this.stopForwarding();
    // The callback of an empty write runs once everything written before it is flushed.
    this.upstream.write(EMPTY, (error) => {
      if (error || this.client.destroyed) {
        this.abandon();
        return;
      }
      this.progress = { ...this.progress, phase: "handed-off" };
      this.stopIdleTimer();
      this.client.write(HANDOFF_DRAINED_MARK);
      this.upstream.off("close", this.onUpstreamClose);
      this.upstream.destroy();
      this.input.onHandedOff();
    });
  }

  /** The bridge refused: the host relays the tunnel itself, the program's end included. */
  private readonly fallBack = (): void => {
    if (!mayFallBack(this.progress)) return;
    this.progress = { ...this.progress, phase: "relaying" };
    this.stopIdleTimer();
    this.stopForwarding();
    this.forget();
    this.client.off("end", this.onBridgeEnded);
    this.upstream.off("close", this.onUpstreamClose);
    this.client.off("close", this.onClientClose);
    this.input.relayInstead();
    // The program's end reached the host while the offer was out: pass it on, after what it sent.
    if (this.progress.bridgeEnded) this.upstream.end();
    else if (!this.upstream.writableNeedDrain) this.client.resume();
  };
}
