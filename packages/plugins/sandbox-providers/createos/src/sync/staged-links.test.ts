import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { caught } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { assertExtractedLinksInside } from "./staged-links.js";

/** A staged tree: directories, then links (`path -> target`), in order. */
async function stagedTree(dirs: readonly string[], links: Record<string, string>): Promise<string> {
  const root = tempDirForTest("staged-links-");
  for (const dir of dirs) await mkdir(join(root, dir), { recursive: true });
  for (const [path, target] of Object.entries(links)) await symlink(target, join(root, path));
  return root;
}

describe("assertExtractedLinksInside", () => {
  it("accepts links that stay inside, through other links, dangling, or in a loop", async () => {
    const links = {
      self: ".",
      "sub/up": "..",
      "sub/deep": "../self/self/sub/up/sub",
      "node_modules/pkg": "../.pnpm/pkg/node_modules/pkg",
      dangling: "sub/missing/file",
      "loop-a": "loop-b",
      "loop-b": "loop-a",
    };
    const root = await stagedTree(["sub", "node_modules", ".pnpm/pkg/node_modules/pkg"], links);
    await expect(assertExtractedLinksInside(root, Object.keys(links))).resolves.toBeUndefined();
  });

  it.each([
    ["a link whose text stays inside but whose path climbs through another link", { a: ".", b: "a/.." }, "b"],
    ["a chain of such links", { a: ".", b: "a/..", c: "b/b/b/etc" }, "b"],
    ["a dangling link that would be created outside", { a: ".", out: "a/../missing" }, "out"],
    ["a link under a directory reached through a link", { "sub/up": "..", x: "sub/up/sub/up/.." }, "x"],
  ])("refuses %s", async (_name, links, entry) => {
    const root = await stagedTree(["sub"], links);
    const error = await caught(
      assertExtractedLinksInside(root, Object.keys(links)),
      "ERR_CREATEOS_SYNC_ARCHIVE_ENTRY",
    );
    expect(error.details).toEqual({ entry });
  });
});
