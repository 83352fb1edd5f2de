import { networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";
import { canonicalizeHost } from "./canonical-host.js";
import { hostInterfaceAddresses } from "./host-addresses.js";

describe("hostInterfaceAddresses", () => {
  it("holds every address of this namespace's interfaces, in canonical form, zones dropped", () => {
    const own = hostInterfaceAddresses();
    const listed = Object.values(networkInterfaces()).flatMap((infos) => infos ?? []);
    expect(listed.length).toBeGreaterThan(0);
    for (const { address } of listed) {
      expect(own.has(canonicalizeHost(address.replace(/%.*$/, ""))!.key), address).toBe(true);
    }
  });
});
