import { type TimerAt, timerAt } from "../../timers/timer-at.js";
import { type LeaseExpiry, leaseClock } from "./lease-expiry.js";

/** How many times one lease expiry is asked to be renewed before it lapses unanswered. */
export const RENEWAL_ASKS = 4;

/**
 * Pure: when to ask for the renewal of a lease that lapses at `lapsesAtMs` (both on `leaseClock()`),
 * from `nowMs`: halfway there, then, while unanswered, halfway through each remainder (at 1/2,
 * 3/4, 7/8 and 15/16 of the time left), `RENEWAL_ASKS` times in all, every one before the lapse.
 * A lease already lapsed (or lapsing now) is never asked for: the lapse ends the connection at
 * once, and the asks used to go out all four together just before it.
 *
 * Why ask again: upstream's runner does, at the same points (observed side by side), and it is
 * harmless and bounded (four asks a lease expiry; the server answers a repeated ask with the
 * expiry it stored, never renewing twice). It rescues less than it seems: on one WebSocket an
 * ask is not lost, and the server (2026.916.1) ignores every `lease_renew` on a connection once
 * a terminal command (`runner.shutdown`, `runner.suspend`) was delivered on it, the asks again
 * as well (it never forgets that command for the connection); a lease renewed on a later
 * connection is asked for afresh there.
 */
export function renewalTimes(nowMs: number, lapsesAtMs: number): number[] {
  const left = lapsesAtMs - nowMs;
  if (left <= 0) return [];
  return Array.from({ length: RENEWAL_ASKS }, (_, index) => lapsesAtMs - left / 2 ** (index + 1));
}

/**
 * Renews the connection lease on the connection that holds it, asking again while unanswered
 * (`renewalTimes`), and calls `lapse` at the expiry itself if no renewal came by then. Repeating a
 * renewal for the same expiry is safe: the server answers with the expiry it already stored.
 */
export class LeaseRenewal {
  private renewTimers: TimerAt[] = [];
  private lapseTimer: TimerAt | undefined;

  /**
   * Sends `renew(expiry.atUnixMs)` at each of `renewalTimes`, and calls `lapse` when the lease
   * lapses; replaces any earlier schedule (an answered renewal schedules the next). Both are counted on `leaseClock()` to when
   * the lease lapses here (the time the server gave, from the frame's arrival), never by comparing
   * the server's time with this machine's. A lease weeks long is renewed weeks later, not at once.
   * A server (or a relay) that keeps the connection open and never answers the renewal leaves a
   * connection nobody vouches for any more: upstream's runner stops there ("active connection
   * lease expired"), and so does this one, where it used to wait on the silent connection for ever.
   */
  schedule(expiry: LeaseExpiry, renew: (expiresAtUnixMs: number) => void, lapse: () => void): void {
    this.cancel();
    const now = leaseClock();
    this.renewTimers = renewalTimes(now, expiry.lapsesAtMs).map((at) =>
      timerAt(at, () => renew(expiry.atUnixMs), leaseClock),
    );
    this.lapseTimer = timerAt(expiry.lapsesAtMs, lapse, leaseClock);
  }

  cancel(): void {
    for (const timer of this.renewTimers) timer.cancel();
    this.renewTimers = [];
    this.lapseTimer?.cancel();
    this.lapseTimer = undefined;
  }
}
