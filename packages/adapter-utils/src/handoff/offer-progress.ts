/** Where a tunnel offer stands: out to the bridge, draining to the mark, handed off, or relayed by the host. */
export type OfferPhase = "offered" | "draining" | "handed-off" | "relaying";

export interface OfferProgress {
  readonly phase: OfferPhase;
  /** The courier reported that the bridge took the socket. */
  readonly taken: boolean;
  /** The proxy connection's write side ended (by the bridge, or the program's own half-close). */
  readonly bridgeEnded: boolean;
}

/** The host drains and writes the mark only once the bridge both took the socket and ended its side. */
export function readyToDrain(progress: OfferProgress): boolean {
  return progress.phase === "offered" && progress.taken && progress.bridgeEnded;
}

/** A refusal puts the host relay in place only while the offer is out and the bridge has not taken it. */
export function mayFallBack(progress: OfferProgress): boolean {
  return progress.phase === "offered" && !progress.taken;
}
