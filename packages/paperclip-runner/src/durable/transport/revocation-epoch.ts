import { frameInvalid } from "./secure-channel.js";

/**
 * The connection lease's revocation epoch as a `welcome` states it (`reason` names the frame in
 * the error): a non-negative safe integer, as the server stores it and as upstream's runner
 * requires. Anything else is a bad frame: it used to be kept as it came and named back in every
 * `lease_renew`, where the server, finding no equal epoch, closes the connection unexplained.
 */
export function revocationEpoch(kind: unknown, value: unknown, reason: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw frameInvalid(`the ${kind}'s connectionLeaseRevocationEpoch is not a non-negative integer`, reason);
  }
  return value;
}

/**
 * Pure: the epoch a `lease_renewed` states, checked against the `current` one (the welcome's).
 * A renewal extends the lease it was asked for and never changes its binding: the server names
 * back the epoch the runner's `lease_renew` named, and upstream's runner refuses any other ("lease
 * renewal changed the authenticated binding"). A lower epoch is a stale or replayed grant; a
 * higher one means the lease was revoked, which a renewal cannot announce (revocation closes
 * the lease, it is not renewed under a new epoch).
 */
export function renewedRevocationEpoch(value: unknown, current: number): number {
  const epoch = revocationEpoch("lease_renewed", value, "lease");
  if (epoch < current) {
    throw frameInvalid(
      `the lease_renewed's connectionLeaseRevocationEpoch ${epoch} goes back from the lease's ${current}`,
      "lease",
    );
  }
  if (epoch > current) {
    throw frameInvalid(
      `the lease_renewed's connectionLeaseRevocationEpoch ${epoch} is not the lease's ${current}: a renewal cannot advance it`,
      "lease",
    );
  }
  return epoch;
}
