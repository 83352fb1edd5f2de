import { type TimerAt, timerAt } from "../../timers/timer-at.js";
import { type LeaseExpiry, leaseClock } from "./lease-expiry.js";

/**
 * Renews the connection lease halfway to its expiry, on the connection that holds it, and calls
 * `lapse` at the expiry itself if no renewal came by then. Repeating a renewal for the same expiry
 * is safe: the server answers with the expiry it already stored.
 */
export class LeaseRenewal {
  private renewTimer: TimerAt | undefined;
  private lapseTimer: TimerAt | undefined;

  /**
   * Sends `renew(expiry.atUnixMs)` when half of the time left has passed, and calls `lapse` when
   * the lease lapses; replaces any earlier schedule. Both are counted on `leaseClock()` to when
   * the lease lapses here (the time the server gave, from the frame's arrival), never by comparing
   * the server's time with this machine's. A lease weeks long is renewed weeks later, not at once.
   * A server (or a relay) that keeps the connection open and never answers the renewal leaves a
   * connection nobody vouches for any more: upstream's runner stops there ("active connection
   * lease expired"), and so does this one, where it used to wait on the silent connection for ever.
   */
  schedule(expiry: LeaseExpiry, renew: (expiresAtUnixMs: number) => void, lapse: () => void): void {
    this.cancel();
    const now = leaseClock();
    this.renewTimer = timerAt(
      now + Math.max(0, (expiry.lapsesAtMs - now) / 2),
      () => renew(expiry.atUnixMs),
      leaseClock,
    );
    this.lapseTimer = timerAt(expiry.lapsesAtMs, lapse, leaseClock);
  }

  cancel(): void {
    this.renewTimer?.cancel();
    this.renewTimer = undefined;
    this.lapseTimer?.cancel();
    this.lapseTimer = undefined;
  }
}
