import { describe, expect, it } from "vitest";
import { ownerRecordLocations } from "./owner-record-location.js";

const ROOTS = ["/dev/shm/r-1", "/tmp/r-1", "/run/user/1/r-1"];

describe("ownerRecordLocations", () => {
  it("keeps the record inside a directory that lies in a private root", () => {
    expect(ownerRecordLocations("/tmp/r-1/paperclip-network-sandbox-abc123", ROOTS)).toEqual([
      "/tmp/r-1/paperclip-network-sandbox-abc123/owner.json",
    ]);
  });

  it("puts the record of any other directory in every root's registry, never beside the directory", () => {
    const locations = ownerRecordLocations("/var/tmp/paperclip-network-sandbox-abc123", ROOTS);
    expect(locations).toHaveLength(3);
    locations.forEach((location, index) => {
      expect(location.startsWith(`${ROOTS[index]}/owners/`)).toBe(true);
      expect(location).toMatch(/\/[0-9a-f]{40}\.json$/);
    });
    // /tmp itself, outside the root /tmp/r-1, is sandbox-visible in some scopes.
    expect(ownerRecordLocations("/tmp/paperclip-network-sandbox-abc123", ROOTS)[0]).toMatch(
      /^\/dev\/shm\/r-1\/owners\//,
    );
  });

  it("names each directory's record apart", () => {
    const [first] = ownerRecordLocations("/var/tmp/paperclip-network-sandbox-aaaaaa", ROOTS);
    const [second] = ownerRecordLocations("/var/tmp/paperclip-network-sandbox-aaaaab", ROOTS);
    expect(first).not.toBe(second);
  });
});
