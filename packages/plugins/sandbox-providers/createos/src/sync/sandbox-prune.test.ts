import { describe, expect, it } from "vitest";
import { compileExcludes } from "./exclude-glob.js";
import { sandboxPruneArgs } from "./sandbox-prune.js";

describe("sandboxPruneArgs", () => {
  it("hands tar the literal names, as written or with ./ and a trailing slash", () => {
    expect(sandboxPruneArgs([".paperclip-runtime", "./node_modules/", ".cache"])).toEqual([
      "--exclude=.paperclip-runtime",
      "--exclude=node_modules",
      "--exclude=.cache",
    ]);
  });

  it("keeps globs, paths with a slash and names tar would read as options for the host alone", () => {
    expect(
      sandboxPruneArgs(["*.log", "dist/*", "a/b", "[ab]", "{x,y}", "!keep", "-rf", ".", "..", "a b", "é"]),
    ).toEqual([]);
    expect(sandboxPruneArgs(undefined)).toEqual([]);
  });

  it("names only what the host's own filter excludes too, at any depth", () => {
    const patterns = [".paperclip-runtime", "node_modules", "*.tmp"];
    const excluded = compileExcludes(patterns);
    for (const arg of sandboxPruneArgs(patterns)) {
      const name = arg.slice("--exclude=".length);
      expect(excluded(name)).toBe(true);
      expect(excluded(`./deep/er/${name}`)).toBe(true);
      expect(excluded(`${name}/inside`)).toBe(true);
    }
  });
});
