import { describe, expect, it } from "vitest";
import { reservedBytes } from "./host-room.js";

describe("reservedBytes", () => {
  it("keeps 5% of a file system free, never more than 1 GiB", () => {
    expect(reservedBytes(16 * 1024 ** 2)).toBe(838_860);
    expect(reservedBytes(10 * 1024 ** 3)).toBe(536_870_912);
    expect(reservedBytes(2 * 1024 ** 4)).toBe(1024 ** 3);
    expect(reservedBytes(0)).toBe(0);
  });
});
