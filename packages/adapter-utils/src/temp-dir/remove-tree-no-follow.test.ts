import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, rename, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { MAX_OPEN_DIRECTORIES, removeTreeNoFollow } from "./remove-tree-no-follow.js";

/** A directory outside the tree to remove, holding a file that must survive. */
async function victim(): Promise<{ dir: string; file: string }> {
  const dir = tempDirForTest("pc-rm-victim-");
  const file = path.join(dir, "keep.txt");
  await writeFile(file, "keep");
  return { dir, file };
}

describe("removeTreeNoFollow", () => {
  it("removes a nested tree, links as links", async () => {
    const outside = await victim();
    const tree = path.join(tempDirForTest(), "run");
    await mkdir(path.join(tree, "mask", "0", "deep"), { recursive: true });
    await writeFile(path.join(tree, "mask", "0", "deep", "file"), "x");
    await symlink(outside.dir, path.join(tree, "mask", "0", "link-to-dir"));
    await symlink(outside.file, path.join(tree, "link-to-file"));
    await removeTreeNoFollow(tree);
    expect(existsSync(tree)).toBe(false);
    expect(await readFile(outside.file, "utf8")).toBe("keep");
  });

  it("removes a run's usual leftovers on the spot and a fuller tree by the walk, links as links", async () => {
    const outside = await victim();
    const tree = path.join(tempDirForTest(), "run");
    // A run directory: its owner record, an empty /run mask, a private /tmp holding a mount
    // point and a link the program left, and a private /tmp too full for the quick path.
    await mkdir(path.join(tree, "0", "mount-point"), { recursive: true });
    await mkdir(path.join(tree, "1"));
    await writeFile(path.join(tree, "owner.json"), "{}");
    await symlink(outside.dir, path.join(tree, "0", "link-to-dir"));
    await mkdir(path.join(tree, "2"));
    for (let i = 0; i < 20; i += 1) await writeFile(path.join(tree, "2", `f${i}`), "x");
    await symlink(outside.file, path.join(tree, "2", "link-to-file"));
    const removal = removeTreeNoFollow(tree);
    // Everything but the full directory is gone before the walk's first round trip.
    expect(existsSync(path.join(tree, "0"))).toBe(false);
    expect(existsSync(path.join(tree, "owner.json"))).toBe(false);
    expect(existsSync(path.join(tree, "2"))).toBe(true);
    await removal;
    expect(existsSync(tree)).toBe(false);
    expect(await readFile(outside.file, "utf8")).toBe("keep");
    expect(existsSync(path.join(outside.dir, "keep.txt"))).toBe(true);
  });

  it("does not follow a directory swapped for a link after its parent was listed", async () => {
    const outside = await victim();
    const scratch = tempDirForTest();
    const tree = path.join(scratch, "run");
    await mkdir(path.join(tree, "mask", "0"), { recursive: true });
    await writeFile(path.join(tree, "mask", "0", "keep.txt"), "decoy");
    let swapped = false;
    await removeTreeNoFollow(tree, {
      // What a sandbox still writing into its former /tmp can do between two steps of the walk.
      afterList: async (dir) => {
        if (dir !== path.join(tree, "mask") || swapped) return;
        swapped = true;
        await rename(path.join(tree, "mask", "0"), path.join(scratch, "moved"));
        await symlink(outside.dir, path.join(tree, "mask", "0"));
      },
    });
    expect(swapped).toBe(true);
    expect(existsSync(tree)).toBe(false);
    expect(await readFile(outside.file, "utf8")).toBe("keep");
  });

  it("removes a root that is a link as the link, and a missing root is no error", async () => {
    const outside = await victim();
    const link = path.join(tempDirForTest(), "run");
    await symlink(outside.dir, link);
    await removeTreeNoFollow(link);
    expect(existsSync(link)).toBe(false);
    expect(await readFile(outside.file, "utf8")).toBe("keep");
    await expect(removeTreeNoFollow(link)).resolves.toBeUndefined();
  });

  it("takes a tree deeper than MAX_OPEN_DIRECTORIES in rounds, moving links and locked directories up as they are", async () => {
    const outside = await victim();
    await chmod(outside.dir, 0o755);
    const tree = path.join(tempDirForTest(), "run");
    let level = path.join(tree, "mask");
    for (let depth = 0; depth < 3 * MAX_OPEN_DIRECTORIES; depth += 1) {
      await mkdir(level, { recursive: true });
      await symlink(outside.dir, path.join(level, "to-dir"));
      await writeFile(path.join(level, "file"), "x");
      level = path.join(level, "d");
    }
    await mkdir(path.join(level, "locked"), { recursive: true });
    await chmod(path.join(level, "locked"), 0o000);
    await removeTreeNoFollow(tree);
    expect(existsSync(tree)).toBe(false);
    expect(await readFile(outside.file, "utf8")).toBe("keep");
    expect((await stat(outside.dir)).mode & 0o777).toBe(0o755);
  });
});
