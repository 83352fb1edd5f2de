import { frameInvalid } from "./secure-channel.js";

/**
 * A connection lease's expiry: the server's absolute time, and when it lapses here. The two
 * clocks differ by however far the runner's machine is from the server's, so the runner never
 * compares the server's time with its own: it counts the time the server gave (the expiry less
 * the frame's `sentAt`, both on the server's clock) from the frame's arrival, on a monotonic
 * clock. A runner ahead of the server by the lease's length used to lapse in the tick of the
 * welcome, again after every restart; one behind it kept a lease the server had dropped.
 */
export interface LeaseExpiry {
  /** The expiry on the server's clock: what `lease_renew` names back, and what errors report. */
  readonly atUnixMs: number;
  /** When the lease lapses here, on `leaseClock()`. */
  readonly lapsesAtMs: number;
}

/** The clock lease times are counted on: monotonic, unmoved by changes to the wall clock. */
export const leaseClock = (): number => performance.now();

/** An RFC 3339 time as the server writes `sentAt` (`Date#toISOString`; an offset is accepted too). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The lease expiry a `welcome` or `lease_renewed` (`message`, whose payload is `payload`) states,
 * the frame having arrived at `arrivedAtMs` (on `leaseClock()`). An expiry that is not a finite
 * number is a bad frame (`reason`): `1e400` reads as Infinity, a lease that never lapses. Without
 * a `sentAt` that is a time the server's clock is unknown, and the runner's wall clock at the
 * frame's arrival stands in for it.
 */
export function leaseExpiry(
  message: Record<string, unknown>,
  payload: Record<string, unknown>,
  arrivedAtMs: number,
  reason: string,
): LeaseExpiry {
  const atUnixMs = payload.connectionLeaseExpiresAtUnixMs;
  if (typeof atUnixMs !== "number" || !Number.isFinite(atUnixMs)) {
    throw frameInvalid(`the ${message.kind}'s connectionLeaseExpiresAtUnixMs is not a finite number`, reason);
  }
  const sentAtUnixMs = serverTime(message.sentAt) ?? Date.now() - Math.max(0, leaseClock() - arrivedAtMs);
  return { atUnixMs, lapsesAtMs: arrivedAtMs + (atUnixMs - sentAtUnixMs) };
}

/** `sentAt` as a Unix time in ms, or null when it is missing or not a time. */
function serverTime(sentAt: unknown): number | null {
  if (typeof sentAt !== "string" || !RFC3339.test(sentAt)) return null;
  const unixMs = Date.parse(sentAt);
  return Number.isFinite(unixMs) ? unixMs : null;
}
