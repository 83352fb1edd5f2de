import { frameInvalid } from "./secure-channel.js";

/**
 * Pure: a `lease_renewed` must answer a renewal this runner asked for. Its `lease_renew` names
 * the expiry of the lease it holds (`asked`: the expiries its unanswered `lease_renew`s on this
 * connection named, oldest first, one entry an ask; a renewal unanswered is asked again, and both
 * asks may be answered), and the server names that expiry back as `previousExpiresAtUnixMs` (`#renewLease`
 * in its control plane) with an expiry no earlier (it keeps the later of the stored one and a new
 * lease length). A renewal never asked for (a replayed or duplicated answer), another
 * `previousExpiresAtUnixMs` (or none), or an expiry before the one asked about is not an answer:
 * upstream's runner stops on each ("lease renewal changed the authenticated binding"); this one
 * refuses the frame before taking up its expiry. `ERR_RUNNER_DURABLE_FRAME_INVALID`, reason
 * `lease`. An earlier expiry used to be taken up, and the run ended later as if the lease had
 * lapsed; an unasked one was taken too.
 */
export function checkRenewalAnswer(
  previousExpiresAtUnixMs: unknown,
  renewedTo: number,
  asked: readonly number[],
): void {
  const held = asked.at(-1);
  if (held === undefined) {
    throw frameInvalid(
      "the lease_renewed answers no lease_renew this runner sent on the connection",
      "lease",
    );
  }
  if (typeof previousExpiresAtUnixMs !== "number" || !asked.includes(previousExpiresAtUnixMs)) {
    const named =
      typeof previousExpiresAtUnixMs === "number" && Number.isFinite(previousExpiresAtUnixMs)
        ? `${previousExpiresAtUnixMs}`
        : "none";
    throw frameInvalid(
      `the lease_renewed answers a renewal of the lease expiring at ${named}, not the one this runner holds (${held})`,
      "lease",
    );
  }
  if (renewedTo < previousExpiresAtUnixMs) {
    throw frameInvalid(
      `the lease_renewed moves the lease's expiry back, from ${previousExpiresAtUnixMs} to ${renewedTo}`,
      "lease",
    );
  }
}
