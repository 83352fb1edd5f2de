import { type CredentialMaterial, credentialMaterial } from "./credential.js";
import type { LeaseBinding } from "./lease-binding.js";
import type { LeaseExpiry } from "./lease-expiry.js";
import { leaseExpired } from "./transport-failure.js";

/** Before any welcome: no lease, lapsed since ever (only a ticket opens a connection then). */
const NO_LEASE: LeaseExpiry = { atUnixMs: 0, lapsesAtMs: Number.NEGATIVE_INFINITY };

/**
 * What opens the next connection: the bootstrap ticket for the first handshake of this
 * process, the connection lease for every later one. A welcome that grants a lease spends
 * the ticket; once the lease has lapsed nothing opens a connection again (the state is kept
 * for the next runner).
 */
export class LeaseCredentials {
  private ticket: string | null;
  private leaseToken: string | null = null;
  private lease: LeaseExpiry = NO_LEASE;
  private leaseBinding: LeaseBinding | null = null;

  constructor(ticket: string) {
    this.ticket = ticket;
  }

  /** The lease's expiry (the server's time, and when it lapses here). */
  get expiry(): LeaseExpiry {
    return this.lease;
  }

  /** The lease the next handshake offers (its id and epoch); null while the ticket is not spent yet. */
  get binding(): LeaseBinding | null {
    return this.leaseToken === null ? null : this.leaseBinding;
  }

  /** When the lease in use lapses; null while the ticket is not spent yet (no lease in use). */
  get leaseInUse(): LeaseExpiry | null {
    return this.leaseToken === null ? null : this.lease;
  }

  /**
   * The credential of the next handshake, `nowMs` read on `leaseClock()`;
   * ERR_RUNNER_DURABLE_LEASE_EXPIRED once the lease has lapsed.
   */
  next(nowMs: number): CredentialMaterial {
    if (this.leaseToken !== null) {
      if (nowMs >= this.lease.lapsesAtMs) throw leaseExpired(this.lease.atUnixMs);
      return credentialMaterial(this.leaseToken);
    }
    if (this.ticket === null) throw leaseExpired(this.lease.atUnixMs);
    return credentialMaterial(this.ticket);
  }

  /**
   * A welcome: the lease it grants replaces the ticket, which is spent, and binds every later
   * handshake to `binding`; its expiry is the lease's.
   */
  welcomed(leaseToken: string | null, expiry: LeaseExpiry, binding: LeaseBinding): void {
    if (leaseToken !== null) {
      this.leaseToken = leaseToken;
      this.leaseBinding = binding;
      // The ticket is spent: forget it.
      this.ticket = null;
    }
    this.lease = expiry;
  }

  /** The server renewed the lease until `expiry`. */
  renewed(expiry: LeaseExpiry): void {
    this.lease = expiry;
  }

  /**
   * A server that refused the handshake before its challenge no longer knows the lease once
   * it was in use and no ticket is left: ERR_RUNNER_DURABLE_LEASE_EXPIRED. Before that, the
   * refusal is one more failed attempt.
   */
  checkRefusal(): void {
    if (this.leaseToken !== null && this.ticket === null) throw leaseExpired(this.lease.atUnixMs);
  }
}
