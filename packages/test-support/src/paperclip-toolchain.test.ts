import { isAbsolute } from "node:path";
import { describe, expect, it } from "vitest";
import { toolchainCache } from "./paperclip-toolchain.js";

describe("toolchainCache", () => {
  it("returns the path the cache script prints", () => {
    const dir = toolchainCache("these tests", "dir");
    expect(isAbsolute(dir)).toBe(true);
    expect(dir).not.toContain("\n");
  });

  it("names the suite and the command to run by hand when the script fails", () => {
    expect(() => toolchainCache("the example suite", "no-such-tool")).toThrow(
      "precondition: the example suite need no-such-tool from the toolchain cache, installed once from the network (bash scripts/lib/toolchain-cache.sh no-such-tool failed)",
    );
  });
});
