import { describe, expect, it } from "vitest";
import { credentialMaterial } from "./credential.js";
import { LeaseCredentials } from "./lease-credentials.js";

const expired = expect.objectContaining({ code: "ERR_RUNNER_DURABLE_LEASE_EXPIRED" });

/** A lease the server says ends at `atUnixMs` (its clock), lapsing here at `lapsesAtMs` (the lease clock). */
const lease = (atUnixMs: number, lapsesAtMs: number) => ({ atUnixMs, lapsesAtMs });
const BOUND = { leaseId: "connection_lease_1", revocationEpoch: 2 };

describe("LeaseCredentials", () => {
  it("opens with the ticket until a welcome grants a lease, then with the lease", () => {
    const credentials = new LeaseCredentials("ticket-1");
    expect(credentials.next(0)).toEqual(credentialMaterial("ticket-1"));
    credentials.welcomed(null, lease(5_000, 5_000), BOUND);
    expect(credentials.next(1_000)).toEqual(credentialMaterial("ticket-1"));
    expect(credentials.leaseInUse).toBeNull();
    expect(credentials.binding).toBeNull();
    credentials.welcomed("lease-1", lease(10_000, 10_000), BOUND);
    expect(credentials.next(1_000)).toEqual(credentialMaterial("lease-1"));
    expect(credentials.leaseInUse).toEqual(lease(10_000, 10_000));
    // Every later handshake offers the lease the granting welcome named.
    expect(credentials.binding).toEqual(BOUND);
  });
  it("refuses to open once the lease has lapsed on the lease clock, whatever the server's time says", () => {
    const credentials = new LeaseCredentials("ticket-1");
    // The server's expiry is far from the lease clock (its clock and this one differ): only
    // `lapsesAtMs` decides, and the error names the server's expiry.
    credentials.welcomed("lease-1", lease(9_000_000, 10_000), BOUND);
    expect(credentials.next(9_999)).toEqual(credentialMaterial("lease-1"));
    expect(() => credentials.next(10_000)).toThrow(expired);
    credentials.renewed(lease(9_060_000, 20_000));
    expect(credentials.next(10_000)).toEqual(credentialMaterial("lease-1"));
    expect(() => credentials.next(20_000)).toThrow(
      expect.objectContaining({ details: { expiresAtUnixMs: 9_060_000 } }),
    );
  });
  it("a refusal before the challenge is final only once the ticket is spent on a lease", () => {
    const credentials = new LeaseCredentials("ticket-1");
    expect(() => credentials.checkRefusal()).not.toThrow();
    credentials.welcomed("lease-1", lease(10_000, 10_000), BOUND);
    expect(() => credentials.checkRefusal()).toThrow(expired);
  });
});
