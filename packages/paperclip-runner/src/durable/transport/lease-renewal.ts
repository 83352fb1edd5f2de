import { type TimerAt, timerAt } from "../../timers/timer-at.js";
import { type LeaseExpiry, leaseClock } from "./lease-expiry.js";

/** How many times one lease expiry is asked to be renewed before it lapses unanswered. */
export const RENEWAL_ASKS = 4;

/**
 * Pure: when to ask for the renewal of a lease that lapses at `lapsesAtMs` (both on `leaseClock()`),
 * from `nowMs`: halfway there, then, while unanswered, halfway through each remainder (at 1/2,
 * 3/4, 7/8 and 15/16 of the time left), `RENEWAL_ASKS` times in all, every one before the lapse.
 * The server answers no `lease_renew` that arrives while a terminal command (`runner.shutdown`,
 * `runner.suspend`) is under way, or one lost with a frame; asked once, the lease used to lapse
 * then, though the server would have renewed it a moment later.
 */
export function renewalTimes(nowMs: number, lapsesAtMs: number): number[] {
  const left = Math.max(0, lapsesAtMs - nowMs);
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
