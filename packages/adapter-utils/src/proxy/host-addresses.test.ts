import { networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";
import { hostLocalAddresses } from "./host-addresses.js";

describe("hostLocalAddresses", () => {
  it("holds every address of this namespace's interfaces and its loopback prefix, zones dropped", async () => {
    const own = await hostLocalAddresses();
    const listed = Object.values(networkInterfaces()).flatMap((infos) => infos ?? []);
    expect(listed.length).toBeGreaterThan(0);
    for (const { address } of listed) expect(own.has(address.replace(/%.*$/, "")), address).toBe(true);
    // The whole of 127/8 is a local route, not only the address lo carries.
    expect(own.has("127.8.9.10")).toBe(true);
    expect(own.has("::ffff:127.0.0.1")).toBe(true);
    expect(own.has("8.8.4.4")).toBe(false);
    expect(own.has("2001:4860:4860::8844")).toBe(false);
  });

  it("shares one read between lookups that ask at once", async () => {
    const [first, second] = [hostLocalAddresses(), hostLocalAddresses()];
    expect(first).toBe(second);
    await first;
    expect(hostLocalAddresses()).not.toBe(first);
  });
});
