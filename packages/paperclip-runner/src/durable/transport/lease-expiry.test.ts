import { describe, expect, it, vi } from "vitest";
import { leaseClock, leaseExpiry } from "./lease-expiry.js";

const invalid = (words: string) =>
  expect.objectContaining({
    code: "ERR_RUNNER_DURABLE_FRAME_INVALID",
    details: { reason: "lease" },
    message: expect.stringContaining(words),
  });

const TEN_MINUTES = 10 * 60_000;

/** A `lease_renewed` sent at `sentAt` granting a lease until `expiresAt`. */
const renewed = (sentAt: unknown, expiresAt: unknown) => {
  const payload = { connectionLeaseExpiresAtUnixMs: expiresAt, connectionLeaseRevocationEpoch: 0 };
  return [{ kind: "lease_renewed", sentAt, payload }, payload] as const;
};

describe("leaseExpiry", () => {
  it("counts the time the server gave (expiry less sentAt) from the arrival, whatever the server's clock", () => {
    for (const skew of [-TEN_MINUTES, 0, TEN_MINUTES]) {
      const serverNow = Date.now() + skew;
      const [message, payload] = renewed(new Date(serverNow).toISOString(), serverNow + 60_000);
      expect(leaseExpiry(message, payload, 5_000, "lease")).toEqual({
        atUnixMs: serverNow + 60_000,
        lapsesAtMs: 65_000,
      });
    }
  });

  it("reads sentAt with an offset as the same instant", () => {
    const [message, payload] = renewed("2026-01-01T02:00:00.000+02:00", Date.UTC(2026, 0, 1, 0, 1));
    expect(leaseExpiry(message, payload, 0, "lease").lapsesAtMs).toBe(60_000);
  });

  it("falls back to this machine's wall clock at the arrival when sentAt is missing or not a time", () => {
    // Both clocks frozen, so the wall clock at the arrival is known exactly.
    vi.useFakeTimers({ toFake: ["Date", "performance"] });
    try {
      for (const sentAt of [
        undefined,
        1_700_000_000_000,
        "yesterday",
        "2026-13-45T99:99:99Z",
        "2026-01-01",
      ]) {
        const arrivedAtMs = leaseClock();
        const wallAtArrival = Date.now();
        // Read a second after its arrival: the time is still counted from the arrival.
        vi.advanceTimersByTime(1_000);
        const [message, payload] = renewed(sentAt, wallAtArrival + 60_000);
        expect(leaseExpiry(message, payload, arrivedAtMs, "lease").lapsesAtMs).toBe(arrivedAtMs + 60_000);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it("an expiry already past the server's sentAt lapses at the arrival or before", () => {
    const [message, payload] = renewed("2026-01-01T00:00:00.000Z", Date.UTC(2025, 11, 31, 23, 59));
    expect(leaseExpiry(message, payload, 1_000, "lease").lapsesAtMs).toBe(-59_000);
  });

  it("refuses an expiry that is not a finite number (FRAME_INVALID)", () => {
    for (const expiresAt of [
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NaN,
      "1",
      null,
      undefined,
    ]) {
      const [message, payload] = renewed(new Date().toISOString(), expiresAt);
      expect(() => leaseExpiry(message, payload, 0, "lease")).toThrow(
        invalid("the lease_renewed's connectionLeaseExpiresAtUnixMs is not a finite number"),
      );
    }
  });
});
