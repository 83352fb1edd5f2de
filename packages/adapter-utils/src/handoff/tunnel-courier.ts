import { rm } from "node:fs/promises";
import type { Socket } from "node:net";
import { stopCourier, takeCourier } from "./courier-process.js";

export interface TunnelOffer {
  /** The bridge connection's id (16 hex digits), as the host named it on relay.sock. */
  readonly id: string;
  /** The connected upstream socket; the courier passes a copy, this one stays the host's. */
  readonly socket: Socket;
  /** Bytes the host has written on the proxy connection; the drained mark follows them. */
  readonly drainOffset: number;
  readonly idleMs: number;
}

/** What the courier reports about one offer. */
export interface TunnelOfferReports {
  /** The bridge's connection took it: it drains, and the host may write the mark once drained. */
  taken(): void;
  /** The courier or the bridge could not take it: the bridge never had it, the host relays it. */
  refused(): void;
  /** The tunnel ended in the bridge, the bridge is gone, or the courier is (nothing then says which offers the bridge holds). */
  closed(): void;
}

export interface TunnelCourier {
  /**
   * Passes an upstream socket towards the bridge; `reports` hears what becomes of it
   * until the returned function forgets the offer (once its tunnel is closed).
   */
  offer(offer: TunnelOffer, reports: TunnelOfferReports): () => void;
  /** Ends the courier (its channel first, then SIGKILL) and removes its socket file. */
  close(): Promise<void>;
}

/**
 * The courier of one proxy (see docs/adapter-utils/handoff.md): the native bridge binary run as
 * `--courier`, listening on `socketPath` for the bridge, with a Node IPC channel (Node
 * passes sockets to a child process; the courier passes them on to the bridge).
 * Resolves `null` when no courier can listen there; the proxy then relays every tunnel
 * itself.
 */
export async function startTunnelCourier(binary: string, socketPath: string): Promise<TunnelCourier | null> {
  const child = await takeCourier(binary, socketPath);
  if (!child) {
    await rm(socketPath, { force: true });
    return null;
  }

  const offers = new Map<string, TunnelOfferReports>();
  const reportToAll = (report: keyof TunnelOfferReports) => {
    for (const reports of [...offers.values()]) reports[report]();
  };
  child.on("message", (message: unknown) => {
    const { handoff, id } = (message ?? {}) as { handoff?: unknown; id?: unknown };
    if (handoff === "bridge-gone") reportToAll("closed");
    if (typeof id !== "string") return;
    if (handoff === "taken") offers.get(id)?.taken();
    if (handoff === "refused") offers.get(id)?.refused();
    if (handoff === "closed") offers.get(id)?.closed();
  });
  // Without its courier the host cannot tell which offers the bridge holds, nor hear of their
  // end: relaying one again could race the bridge for its upstream socket, so every tunnel
  // that was offered is closed.
  child.once("disconnect", () => reportToAll("closed"));

  return {
    offer(offer, reports) {
      const forget = () => {
        if (offers.get(offer.id) === reports) offers.delete(offer.id);
      };
      if (!child.connected || offers.has(offer.id)) {
        queueMicrotask(() => reports.refused());
        return forget;
      }
      offers.set(offer.id, reports);
      const message = { id: offer.id, drainOffset: offer.drainOffset, idleMs: offer.idleMs };
      child.send(message, offer.socket, { keepOpen: true }, (error) => {
        if (error) offers.get(offer.id)?.refused();
      });
      return forget;
    },
    async close() {
      await stopCourier(child);
      await rm(socketPath, { force: true });
    },
  };
}
