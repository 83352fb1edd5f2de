import { RunnerError } from "@paperclipai/errors";

/**
 * How many lease reconnects whose client proof the server closed on are tried again, between two
 * welcomes. On a lease reconnect the server closes so when the lease's record changed between its challenge
 * and the proof: a renewal the previous connection asked for, committed meanwhile; the next
 * handshake's challenge names the renewed lease. That race is one renewal's, so it does not repeat
 * much. The server closes the same way on what is final (a protocol integrity error, a warm
 * transition it refuses, the lease revoked during the handshake): retried without a bound, those
 * used to end the run only when the reconnect grace or the lease ran out, as
 * `ERR_RUNNER_DURABLE_RECONNECT_DEADLINE` or `ERR_RUNNER_DURABLE_LEASE_EXPIRED`, where they end it
 * at once with `ERR_RUNNER_DURABLE_SERVER_PROOF`.
 */
export const REFUSED_PROOF_RETRIES = 2;

/**
 * Pure: whether a handshake that failed with `error` is tried again, given how many since the
 * last welcome the server closed on after the client proof (`refusedSinceWelcome`). Only on a lease
 * reconnect (`onLease`): a ticket's proof refused is final.
 */
export function retriesRefusedProof(error: unknown, onLease: boolean, refusedSinceWelcome: number): boolean {
  return onLease && isRefusedClientProof(error) && refusedSinceWelcome < REFUSED_PROOF_RETRIES;
}

/** Whether `error` is the server's close after this runner's client proof (`closedAfterProof`). */
export function isRefusedClientProof(error: unknown): boolean {
  return (
    error instanceof RunnerError &&
    error.code === "ERR_RUNNER_DURABLE_SERVER_PROOF" &&
    (error.details as { reason?: unknown } | undefined)?.reason === "refused_client_proof"
  );
}

/** The server closed the connection after the client proof, instead of sending its welcome. */
export function closedAfterProof(): RunnerError {
  return new RunnerError(
    "ERR_RUNNER_DURABLE_SERVER_PROOF",
    "durable handshake failed: the server closed the connection instead of accepting the client proof",
    { details: { reason: "refused_client_proof" } },
  );
}
