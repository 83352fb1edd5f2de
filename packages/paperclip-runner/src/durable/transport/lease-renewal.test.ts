import { describe, expect, it } from "vitest";
import { RENEWAL_ASKS, renewalTimes } from "./lease-renewal.js";

describe("when a lease's renewal is asked", () => {
  it("halfway to the lapse, then halfway through each remainder, a bounded number of times, all before it", () => {
    expect(renewalTimes(1_000, 17_000)).toEqual([9_000, 13_000, 15_000, 16_000]);
    expect(RENEWAL_ASKS).toBe(4);
  });

  it("never for a lease already lapsed (or lapsing now): the lapse comes first, not four asks at once", () => {
    expect(renewalTimes(5_000, 4_000)).toEqual([]);
    expect(renewalTimes(4_000, 4_000)).toEqual([]);
  });
});
