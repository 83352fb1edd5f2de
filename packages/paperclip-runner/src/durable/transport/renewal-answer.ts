import { frameInvalid } from "./secure-channel.js";

/**
 * Pure: a `lease_renewed` must answer the renewal this runner asked for. Its `lease_renew` names
 * the expiry of the lease it holds (`asked`, the server's time), and the server names that expiry
 * back as `previousExpiresAtUnixMs` (`#renewLease` in its control plane). Another value (or none)
 * answers a renewal never asked on this lease: upstream's runner stops on it ("lease renewal
 * changed the authenticated binding"); this one refuses the frame before taking up its expiry.
 * `ERR_RUNNER_DURABLE_FRAME_INVALID`, reason `lease`.
 */
export function checkRenewalAnswer(previousExpiresAtUnixMs: unknown, asked: number): void {
  if (previousExpiresAtUnixMs === asked) return;
  const named =
    typeof previousExpiresAtUnixMs === "number" && Number.isFinite(previousExpiresAtUnixMs)
      ? `${previousExpiresAtUnixMs}`
      : "none";
  throw frameInvalid(
    `the lease_renewed answers a renewal of the lease expiring at ${named}, not the one this runner holds (${asked})`,
    "lease",
  );
}
