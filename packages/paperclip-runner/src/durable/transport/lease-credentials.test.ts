import { describe, expect, it } from "vitest";
import { credentialMaterial } from "./credential.js";
import { LeaseCredentials } from "./lease-credentials.js";

const expired = expect.objectContaining({ code: "ERR_RUNNER_DURABLE_LEASE_EXPIRED" });

describe("LeaseCredentials", () => {
  it("opens with the ticket until a welcome grants a lease, then with the lease", () => {
    const credentials = new LeaseCredentials("ticket-1");
    expect(credentials.next(0)).toEqual(credentialMaterial("ticket-1"));
    credentials.welcomed(null, 5_000);
    expect(credentials.next(1_000)).toEqual(credentialMaterial("ticket-1"));
    credentials.welcomed("lease-1", 10_000);
    expect(credentials.next(1_000)).toEqual(credentialMaterial("lease-1"));
    expect(credentials.expiresAtUnixMs).toBe(10_000);
  });
  it("refuses to open once the lease has lapsed; a renewal moves the expiry", () => {
    const credentials = new LeaseCredentials("ticket-1");
    credentials.welcomed("lease-1", 10_000);
    expect(() => credentials.next(10_000)).toThrow(expired);
    credentials.renewed(20_000);
    expect(credentials.next(10_000)).toEqual(credentialMaterial("lease-1"));
    expect(() => credentials.next(20_000)).toThrow(
      expect.objectContaining({ details: { expiresAtUnixMs: 20_000 } }),
    );
  });
  it("a refusal before the challenge is final only once the ticket is spent on a lease", () => {
    const credentials = new LeaseCredentials("ticket-1");
    expect(() => credentials.checkRefusal()).not.toThrow();
    credentials.welcomed("lease-1", 10_000);
    expect(() => credentials.checkRefusal()).toThrow(expired);
  });
});
