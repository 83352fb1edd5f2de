import { type TimerAt, timerAt } from "../../timers/timer-at.js";

/**
 * Renews the connection lease halfway to its expiry, on the connection that holds
 * it, and calls `lapse` at the expiry itself if no renewal came by then. Repeating a
 * renewal for the same expiry is safe: the server answers with the expiry it already stored.
 */
export class LeaseRenewal {
  private renewTimer: TimerAt | undefined;
  private lapseTimer: TimerAt | undefined;

  /**
   * Sends `renew(expiresAtUnixMs)` when half of the time left has passed, and calls `lapse` when
   * the lease expires; replaces any earlier schedule. The expiry is the server's: a lease weeks
   * long is renewed weeks later, not at once. A server (or a relay) that keeps the connection open
   * and never answers the renewal leaves a connection nobody vouches for any more: upstream's
   * runner stops there ("active connection lease expired"), and so does this one, where it used
   * to wait on the silent connection for ever.
   */
  schedule(expiresAtUnixMs: number, renew: (expiresAtUnixMs: number) => void, lapse: () => void): void {
    this.cancel();
    const now = Date.now();
    this.renewTimer = timerAt(now + Math.max(0, (expiresAtUnixMs - now) / 2), () => renew(expiresAtUnixMs));
    this.lapseTimer = timerAt(expiresAtUnixMs, lapse);
  }

  cancel(): void {
    this.renewTimer?.cancel();
    this.renewTimer = undefined;
    this.lapseTimer?.cancel();
    this.lapseTimer = undefined;
  }
}
