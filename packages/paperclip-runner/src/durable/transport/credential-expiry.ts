import { RunnerError } from "@paperclipai/errors";
import type { LeaseExpiry } from "./lease-expiry.js";
import { frameInvalid } from "./secure-channel.js";

/**
 * Pure: the expiry an `auth_challenge` states for the credential it authenticates
 * (`credentialExpiresAtUnixMs`, the server's clock). The server admits no expired credential,
 * and upstream's runner does not answer a challenge whose credential has expired. Reading
 * "expired" off this machine's wall clock would refuse every handshake of a runner whose clock is
 * ahead of the server's, so it is read on the server's clock as this runner counts it:
 *
 * - a lease (`held`, as the last `welcome` or `lease_renewed` stated it): the challenge's expiry,
 *   counted from `held` on the lease clock, must not have passed at `nowMs`. A later expiry than
 *   `held` is taken (a `lease_renewed` lost with its connection leaves the server ahead);
 * - the ticket (`held` null): nothing tells the server's time before the welcome, and the welcome
 *   cannot tell either: the server checks the ticket when the client proof arrives and stamps the
 *   welcome's `sentAt` later, so a ticket expiring in between was spent in time. Only the shape
 *   is checked.
 *
 * A missing or non-finite expiry, or one passed: `ERR_RUNNER_DURABLE_SERVER_PROOF`, reason
 * `credential_expiry`, before any client proof is given.
 */
export function challengeCredentialExpiry(value: unknown, held: LeaseExpiry | null, nowMs: number): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw expiryRefused("the auth_challenge's credentialExpiresAtUnixMs is not a finite number");
  }
  if (held !== null && held.lapsesAtMs + (value - held.atUnixMs) <= nowMs) {
    throw expiryRefused(`the auth_challenge names a connection lease that expired at ${value}`);
  }
  return value;
}

/**
 * Pure: a `welcome` must not grant a lease already expired when the server sent it (its expiry
 * at or before the frame's `sentAt`, as `expiry` counts it from `arrivedAtMs`): upstream's runner
 * refuses such a welcome, where this one used to take it and lapse at once.
 * `ERR_RUNNER_DURABLE_FRAME_INVALID`, reason `welcome`, nothing in it applied.
 */
export function checkWelcomeExpiry(expiry: LeaseExpiry, arrivedAtMs: number): void {
  if (expiry.lapsesAtMs <= arrivedAtMs) {
    throw frameInvalid(
      `the welcome grants a connection lease that had expired (at ${expiry.atUnixMs}) when it was sent`,
      "welcome",
    );
  }
}

function expiryRefused(message: string): RunnerError {
  return new RunnerError("ERR_RUNNER_DURABLE_SERVER_PROOF", `durable handshake failed: ${message}`, {
    details: { reason: "credential_expiry" },
  });
}
