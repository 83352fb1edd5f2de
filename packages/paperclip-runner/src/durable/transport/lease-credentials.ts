import { type CredentialMaterial, credentialMaterial } from "./credential.js";
import { leaseExpired } from "./transport-failure.js";

/**
 * What opens the next connection: the bootstrap ticket for the first handshake of this
 * process, the connection lease for every later one. A welcome that grants a lease spends
 * the ticket; once the lease has lapsed nothing opens a connection again (the state is kept
 * for the next runner).
 */
export class LeaseCredentials {
  private ticket: string | null;
  private leaseToken: string | null = null;
  private leaseExpiresAtUnixMs = 0;

  constructor(ticket: string) {
    this.ticket = ticket;
  }

  get expiresAtUnixMs(): number {
    return this.leaseExpiresAtUnixMs;
  }

  /** The next handshake spends the bootstrap ticket: no welcome has granted a lease yet. */
  get ticketInUse(): boolean {
    return this.leaseToken === null;
  }

  /** When the lease in use lapses; null while the ticket is not spent yet (no lease in use). */
  get leaseInUseExpiresAtUnixMs(): number | null {
    return this.leaseToken === null ? null : this.leaseExpiresAtUnixMs;
  }

  /** The credential of the next handshake; ERR_RUNNER_DURABLE_LEASE_EXPIRED once the lease has lapsed. */
  next(nowUnixMs: number): CredentialMaterial {
    if (this.leaseToken !== null) {
      if (nowUnixMs >= this.leaseExpiresAtUnixMs) throw leaseExpired(this.leaseExpiresAtUnixMs);
      return credentialMaterial(this.leaseToken);
    }
    if (this.ticket === null) throw leaseExpired(this.leaseExpiresAtUnixMs);
    return credentialMaterial(this.ticket);
  }

  /** A welcome: the lease it grants replaces the ticket, which is spent; its expiry is the lease's. */
  welcomed(leaseToken: string | null, expiresAtUnixMs: number): void {
    if (leaseToken !== null) {
      this.leaseToken = leaseToken;
      // The ticket is spent: forget it.
      this.ticket = null;
    }
    this.leaseExpiresAtUnixMs = expiresAtUnixMs;
  }

  /** The server renewed the lease until `expiresAtUnixMs`. */
  renewed(expiresAtUnixMs: number): void {
    this.leaseExpiresAtUnixMs = expiresAtUnixMs;
  }

  /**
   * A server that refused the handshake before its challenge no longer knows the lease once
   * it was in use and no ticket is left: ERR_RUNNER_DURABLE_LEASE_EXPIRED. Before that, the
   * refusal is one more failed attempt.
   */
  checkRefusal(): void {
    if (this.leaseToken !== null && this.ticket === null) throw leaseExpired(this.leaseExpiresAtUnixMs);
  }
}
