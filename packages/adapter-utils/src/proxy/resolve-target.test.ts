import { describe, expect, it } from "vitest";
import { systemResolver } from "./resolve-target.js";

describe("systemResolver", () => {
  it("answers from the system resolver with numeric families (localhost comes from /etc/hosts)", async () => {
    const addresses = await systemResolver("localhost");
    expect(addresses.length).toBeGreaterThan(0);
    for (const { address, family } of addresses) {
      expect(["127.0.0.1", "::1"]).toContain(address);
      expect(family).toBe(address.includes(":") ? 6 : 4);
    }
  });
});
