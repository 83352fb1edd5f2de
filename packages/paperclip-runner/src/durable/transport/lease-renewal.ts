import { type TimerAt, timerAt } from "../../timers/timer-at.js";

/**
 * Renews the connection lease halfway to its expiry, on the connection that holds
 * it. Repeating a renewal for the same expiry is safe: the server answers with the
 * expiry it already stored.
 */
export class LeaseRenewal {
  private timer: TimerAt | undefined;

  /**
   * Sends `renew(expiresAtUnixMs)` when half of the time left has passed; replaces any earlier
   * schedule. The expiry is the server's: a lease weeks long is renewed weeks later, not at once.
   */
  schedule(expiresAtUnixMs: number, renew: (expiresAtUnixMs: number) => void): void {
    this.cancel();
    const now = Date.now();
    this.timer = timerAt(now + Math.max(0, (expiresAtUnixMs - now) / 2), () => renew(expiresAtUnixMs));
  }

  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }
}
