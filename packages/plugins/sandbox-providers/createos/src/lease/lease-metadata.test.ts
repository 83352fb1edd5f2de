import { describe, expect, it } from "vitest";
import {
  buildLeaseMetadata,
  hasValidMarker,
  leaseSpecMatches,
  verifyLeaseBinding,
} from "./lease-metadata.js";

const scope = { companyId: "co1", environmentId: "env1", apiOrigin: "http://127.0.0.1:1" };
const spec = { shape: "small", rootfs: undefined, region: "eu" };
const marker = "a".repeat(64);
const metadata = buildLeaseMetadata("sbx_1", scope, spec, marker);

describe("lease metadata", () => {
  it("round-trips through the binding check", () => {
    expect(verifyLeaseBinding("sbx_1", JSON.parse(JSON.stringify(metadata)), scope)).toEqual(metadata);
  });

  it.each([
    ["another company", "sbx_1", { ...metadata, companyId: "co2" }],
    ["another environment", "sbx_1", { ...metadata, environmentId: "env2" }],
    ["another origin", "sbx_1", { ...metadata, apiOrigin: "https://api.sb.createos.sh" }],
    ["another sandbox", "sbx_2", metadata],
    ["no metadata", "sbx_1", undefined],
  ])("rejects %s with upstream's text for the hook", (_name, id, value) => {
    expect(() => verifyLeaseBinding(id, value, scope)).toThrow(
      expect.objectContaining({
        code: "ERR_CREATEOS_LEASE_MISMATCH",
        message: "CreateOS lease does not belong to this environment.",
      }),
    );
    expect(() => verifyLeaseBinding(id, value, scope, "execution")).toThrow(
      "CreateOS execution requires a lease from this environment.",
    );
    expect(() => verifyLeaseBinding(id, value, scope, "workspace")).toThrow(
      "CreateOS workspace requires a lease from this environment.",
    );
  });

  it("keeps a bad marker for resume to judge (an expired lease, not a foreign one)", () => {
    const bound = verifyLeaseBinding("sbx_1", { ...metadata, marker: "x" }, scope);
    expect(hasValidMarker(bound)).toBe(false);
    expect(hasValidMarker(metadata)).toBe(true);
  });

  it("rejects an id that cannot go into a path", () => {
    expect(() => verifyLeaseBinding("../x", metadata, scope)).toThrow(
      expect.objectContaining({ code: "ERR_CREATEOS_INVALID_RESOURCE_ID" }),
    );
  });

  it("expires reuse when shape, rootfs or region change", () => {
    expect(leaseSpecMatches(metadata, spec)).toBe(true);
    for (const changed of [
      { ...spec, shape: "large" },
      { ...spec, rootfs: "ubuntu" },
      { ...spec, region: undefined },
    ]) {
      expect(leaseSpecMatches(metadata, changed)).toBe(false);
    }
  });
});
