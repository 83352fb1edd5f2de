import type { PeerConnection } from "./hand-made-prp-server.js";
import { HAND_MADE_TICKET } from "./hand-made-runner.js";

/** The lease the hand-made server binds to a runner's ticket in the lease-binding tests. */
export const BOUND_LEASE_ID = "connection_lease_1";

/** Authenticates the runner's ticket on `conn` and welcomes it with the bound lease at `epoch`. */
export async function welcomeWithBoundLease(
  conn: PeerConnection,
  leaseToken: string,
  epoch: number,
): Promise<void> {
  await conn.handshake(HAND_MADE_TICKET);
  conn.welcome({
    connectionLeaseToken: leaseToken,
    connectionLeaseId: BOUND_LEASE_ID,
    connectionLeaseRevocationEpoch: epoch,
  });
}
