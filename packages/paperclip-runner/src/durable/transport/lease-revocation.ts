import { RunnerError } from "@paperclipai/errors";
import { frameInvalid } from "./secure-channel.js";

/**
 * Pure: the epoch a server `revoke` names (`payload.revocationEpoch`), checked against the one the
 * connection was authenticated with. A revocation advances the lease's epoch, so it must name a
 * higher one: the same or a lower one revokes nothing (a replayed or stale message), and upstream's
 * runner stops on it ("revoke must advance the authenticated revocation epoch"), as on a missing
 * one ("revoke revocation epoch is required"). Both are bad frames here,
 * `ERR_RUNNER_DURABLE_FRAME_INVALID`, reason `revoke`.
 */
export function revokedEpoch(value: unknown, authenticated: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw frameInvalid("the revoke's revocationEpoch is not a non-negative integer", "revoke");
  }
  const epoch = value;
  if (epoch <= authenticated) {
    throw frameInvalid(
      `the revoke's revocationEpoch ${epoch} does not advance the authenticated ${authenticated}`,
      "revoke",
    );
  }
  return epoch;
}

/**
 * The outcome of a `revoke` that advanced the epoch: the lease no longer holds, and the run stops
 * here with its state kept and `lifecycle: "revoked"` (upstream's runner: "connection capability
 * was revoked", exit 0).
 */
export function leaseRevoked(epoch: number): RunnerError {
  return new RunnerError(
    "ERR_RUNNER_DURABLE_LEASE_REVOKED",
    `connection lease revoked by the server at revocation epoch ${epoch}; durable state is preserved`,
    { details: { revocationEpoch: epoch } },
  );
}

/** Whether `error` is the outcome of a revocation (`leaseRevoked`), not a failure. */
export function isLeaseRevoked(error: unknown): boolean {
  return error instanceof RunnerError && error.code === "ERR_RUNNER_DURABLE_LEASE_REVOKED";
}
