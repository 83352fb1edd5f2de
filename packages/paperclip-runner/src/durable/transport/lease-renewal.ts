/**
 * Renews the connection lease halfway to its expiry, on the connection that holds
 * it. Repeating a renewal for the same expiry is safe: the server answers with the
 * expiry it already stored.
 */
export class LeaseRenewal {
  private timer: NodeJS.Timeout | undefined;

  /** Sends `renew(expiresAtUnixMs)` when half of the time left has passed; replaces any earlier schedule. */
  schedule(expiresAtUnixMs: number, renew: (expiresAtUnixMs: number) => void): void {
    this.cancel();
    const remaining = expiresAtUnixMs - Date.now();
    this.timer = setTimeout(() => renew(expiresAtUnixMs), Math.max(0, remaining / 2));
    this.timer.unref();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
