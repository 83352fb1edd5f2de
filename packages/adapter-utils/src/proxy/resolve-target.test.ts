import { describe, expect, it } from "vitest";
import { canonicalizeHost } from "./canonical-host.js";
import type { NetworkRule } from "./network-rule.js";
import { resolvePinnedTarget } from "./resolve-target.js";

const host = canonicalizeHost("self.test")!;
const rule = (origin: NetworkRule["origin"]): NetworkRule => ({ host, ports: { kind: "web" }, origin });
const answering =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }));
const ownAddresses = () => new Set(["1.2.3.4", "2001:4860::7"]);

describe("resolvePinnedTarget and the host's own addresses", () => {
  it("refuses an allowlisted name answering a public address of this host, in any spelling", async () => {
    for (const answer of ["1.2.3.4", "::ffff:1.2.3.4", "2001:4860:0:0:0:0:0:7"]) {
      const pinned = await resolvePinnedTarget(
        host,
        rule("allowlist"),
        answering("8.8.8.8", answer),
        ownAddresses,
      );
      expect(pinned, answer).toEqual({ ok: false, denied: true, reason: "blocked_address_host" });
    }
  });

  it("lets other public addresses through, and a trusted URL reach the host itself", async () => {
    expect(await resolvePinnedTarget(host, rule("allowlist"), answering("8.8.8.8"), ownAddresses)).toEqual({
      ok: true,
      addresses: [{ address: "8.8.8.8", family: 4 }],
    });
    expect(await resolvePinnedTarget(host, rule("trusted_url"), answering("1.2.3.4"), ownAddresses)).toEqual({
      ok: true,
      addresses: [{ address: "1.2.3.4", family: 4 }],
    });
  });
});
