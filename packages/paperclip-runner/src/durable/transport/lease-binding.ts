import { RunnerError } from "@paperclipai/errors";
import { frameInvalid } from "./secure-channel.js";

/**
 * The connection lease a process holds once the welcome of its ticket handshake granted it: the
 * lease's id and revocation epoch. Every later handshake authenticates with that lease, and the
 * server names it back in the challenge (`credentialLeaseId`, `revocationEpoch`) and the welcome
 * (`connectionLeaseId`, `connectionLeaseRevocationEpoch`). Held in memory only: a relaunched
 * process starts from a fresh ticket, which binds a new lease (upstream's runner keeps no lease
 * in its state either).
 */
export interface LeaseBinding {
  readonly leaseId: string;
  readonly revocationEpoch: number;
}

/**
 * Pure: checks the lease an authentic `auth_challenge` names against the one this handshake
 * offers (`bound`; null: the bootstrap ticket, which names no lease). A lease challenge must name
 * the bound lease and epoch exactly: another id is another lease, a lower epoch a stale grant and
 * a higher one a revocation the runner never saw, none of which this credential was granted.
 * Upstream's runner closes before answering ("authentication challenge changed the credential
 * lease binding"); this one refuses before answering too: `ERR_RUNNER_DURABLE_SERVER_PROOF`,
 * reason `lease_binding`, so no client proof is given for a binding it does not hold. A ticket
 * names no lease: its challenge must say `bootstrap` and no lease id (null, or left out).
 */
export function checkChallengeLease(challenge: Record<string, unknown>, bound: LeaseBinding | null): void {
  const expected: Record<string, unknown> =
    bound === null
      ? { credentialKind: "bootstrap", credentialLeaseId: null }
      : { credentialKind: "lease", credentialLeaseId: bound.leaseId, revocationEpoch: bound.revocationEpoch };
  const actual =
    bound === null ? { ...challenge, credentialLeaseId: challenge.credentialLeaseId ?? null } : challenge;
  const mismatched = mismatches(expected, actual);
  if (mismatched.length === 0) return;
  throw new RunnerError(
    "ERR_RUNNER_DURABLE_SERVER_PROOF",
    `durable handshake failed: the auth_challenge does not name the ${bound === null ? "bootstrap ticket" : "connection lease"} this runner offered (${mismatched.join(", ")})`,
    { details: { reason: "lease_binding" } },
  );
}

/** What a welcome states about its lease. */
export interface WelcomeLease {
  readonly leaseId: string;
  readonly revocationEpoch: number;
  readonly leaseToken: string | null;
}

/**
 * Pure: the welcome of a lease reconnect (`bound` not null) must continue the bound lease: the
 * same id and epoch, and no new lease token (the server grants one only for a ticket). A welcome
 * that names another lease would have the runner renew, and reconnect with, a lease it was never
 * granted under the binding it authenticated. Upstream's runner closes the connection ("welcome
 * changed the authenticated connection lease binding"); `ERR_RUNNER_DURABLE_FRAME_INVALID`,
 * reason `lease_binding`. The welcome of a ticket handshake binds whatever lease it grants.
 */
export function checkWelcomeLease(welcome: WelcomeLease, bound: LeaseBinding | null): void {
  if (bound === null) return;
  const mismatched = mismatches(
    { leaseId: bound.leaseId, revocationEpoch: bound.revocationEpoch, leaseToken: null },
    welcome as unknown as Record<string, unknown>,
  ).map((key) => WELCOME_FIELDS[key] ?? key);
  if (mismatched.length === 0) return;
  throw frameInvalid(
    `the welcome of a lease reconnect does not continue the lease it was authenticated with (${mismatched.join(", ")})`,
    "lease_binding",
  );
}

const WELCOME_FIELDS: Readonly<Record<string, string>> = {
  leaseId: "connectionLeaseId",
  revocationEpoch: "connectionLeaseRevocationEpoch",
  leaseToken: "connectionLeaseToken",
};

function mismatches(expected: Record<string, unknown>, actual: Record<string, unknown>): string[] {
  return Object.entries(expected)
    .filter(([key, value]) => actual[key] !== value)
    .map(([key]) => key);
}
