import { checkControlEnvelope } from "./control-envelope.js";
import { checkWelcomeExpiry } from "./credential-expiry.js";
import type { HelloInput } from "./handshake.js";
import { checkWelcomeLease } from "./lease-binding.js";
import { type LeaseExpiry, leaseExpiry } from "./lease-expiry.js";
import { revocationEpoch } from "./revocation-epoch.js";
import { frameInvalid } from "./secure-channel.js";

/** The server's `welcome`, as this runner uses it. */
export interface Welcome {
  readonly version: number;
  readonly connectionId: string;
  readonly leaseId: string;
  /** Only in the welcome of a ticket handshake: the secret of the lease (kept in memory, never written). */
  readonly leaseToken: string | null;
  /** The lease's expiry, counted from the welcome's arrival (`lease-expiry.ts`). */
  readonly leaseExpiry: LeaseExpiry;
  readonly revocationEpoch: number;
  /**
   * The welcome names the lease renewal this runner speaks (`connectionLeaseRenewalVersion` 1): only
   * then is the lease renewed. Without it upstream's runner sends no `lease_renew` either, and the
   * lease lapses at its expiry.
   */
  readonly renewsLease: boolean;
  readonly ackedSourceSeq: number;
  readonly maxBatchEvents: number;
  readonly pendingCommands: readonly unknown[];
}

/** The batch window when a welcome names none (the server of 2026.916.1 always sends 100). */
const DEFAULT_MAX_BATCH_EVENTS = 100;

/**
 * Pure: the server's first secure frame, checked as this runner's `Welcome` (for the run and the
 * handshake's `input`, its lease counted from `arrivedAtMs`). Thrown: the welcome is refused.
 */
export function readWelcome(
  message: unknown,
  version: number,
  input: HelloInput,
  arrivedAtMs: number,
): Welcome {
  if (!isRecord(message) || message.kind !== "welcome" || !isRecord(message.payload)) {
    throw frameInvalid("the first secure frame is not a welcome", "welcome");
  }
  const payload = message.payload;
  if (
    typeof message.connectionId !== "string" ||
    typeof payload.connectionLeaseId !== "string" ||
    typeof payload.connectionLeaseExpiresAtUnixMs !== "number" ||
    typeof payload.ackedSourceSeq !== "number"
  ) {
    throw frameInvalid("the welcome lacks its lease or acknowledged seq", "welcome");
  }
  // The welcome's envelope names the connection and lease its payload grants, for this run.
  checkControlEnvelope(message, {
    identity: input.identity,
    version,
    connectionId: message.connectionId,
    leaseId: payload.connectionLeaseId,
  });
  const expiry = leaseExpiry(message, payload, arrivedAtMs, "welcome");
  checkWelcomeExpiry(expiry, arrivedAtMs);
  const epoch = revocationEpoch("welcome", payload.connectionLeaseRevocationEpoch, "welcome");
  const leaseToken = payload.connectionLeaseToken;
  // The server spends a ticket on a lease and grants its token in that welcome (a lease
  // reconnect's welcome has none). Without one the ticket would stay in use for the next
  // connection: single use as the server keeps it, upstream's runner refuses such a welcome.
  const lease = input.lease;
  if (lease === null && (typeof leaseToken !== "string" || leaseToken === "")) {
    throw frameInvalid("the welcome of a ticket handshake grants no connection lease token", "welcome");
  }
  checkWelcomeLease(
    {
      leaseId: payload.connectionLeaseId,
      revocationEpoch: epoch,
      leaseToken: leaseToken === undefined ? null : (leaseToken as string | null),
    },
    lease,
  );
  const maxBatchEvents = payload.maxBatchEvents;
  if (
    maxBatchEvents !== undefined &&
    !(Number.isSafeInteger(maxBatchEvents) && (maxBatchEvents as number) > 0)
  ) {
    throw frameInvalid("the welcome's maxBatchEvents is not a positive integer", "welcome");
  }
  return {
    version,
    connectionId: message.connectionId,
    leaseId: payload.connectionLeaseId,
    leaseToken: typeof leaseToken === "string" ? leaseToken : null,
    leaseExpiry: expiry,
    revocationEpoch: epoch,
    renewsLease: payload.connectionLeaseRenewalVersion === 1,
    ackedSourceSeq: payload.ackedSourceSeq,
    maxBatchEvents: typeof maxBatchEvents === "number" ? maxBatchEvents : DEFAULT_MAX_BATCH_EVENTS,
    pendingCommands: Array.isArray(payload.pendingCommands) ? payload.pendingCommands : [],
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
