import { existsSync, writeFileSync } from "node:fs";
import { chmod, mkdir, readFile, rename, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { PaperclipError } from "@paperclipai/errors";
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

  it("removes entries whose names are not UTF-8, at every level and past the quick path", async () => {
    const outside = await victim();
    const tree = path.join(tempDirForTest(), "run");
    // Linux names are bytes: listed as strings, 0xff came back as U+FFFD and nothing matched it.
    const odd = (name: string) => Buffer.from(`${name}\xff`, "latin1");
    const under = (dir: Buffer | string, name: Buffer) =>
      Buffer.concat([Buffer.from(dir), Buffer.from("/"), name]);
    const dir = under(tree, odd("dir"));
    const deeper = under(dir, odd("deeper"));
    for (const level of [tree, dir, deeper]) await mkdir(level);
    writeFileSync(under(tree, odd("file")), "x");
    for (let i = 0; i < 20; i += 1) writeFileSync(under(dir, odd(`f${i}`)), "x");
    await symlink(outside.dir, under(deeper, odd("link")));
    await writeFile(path.join(tree, "owner.json"), "{}");
    await removeTreeNoFollow(tree, {}, { removeLast: "owner.json" });
    expect(existsSync(tree)).toBe(false);
    expect(await readFile(outside.file, "utf8")).toBe("keep");
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

  /**
   * `P` holds `A`, whose removal fails (an injected error once it is listed), and `B`, a
   * chain of directories whose walk goes on through P's descriptor. `B` waits until `A`
   * has failed, so all of its walk lies after that failure. A failure `times` over outlasts
   * A's own EACCES retry (one), so that P retries.
   */
  async function failingSibling(code: string, times = 1) {
    const tree = path.join(tempDirForTest(), "run");
    await mkdir(path.join(tree, "P", "A"), { recursive: true });
    await writeFile(path.join(tree, "P", "A", "file"), "x");
    await mkdir(path.join(tree, "P", "B", ...Array.from({ length: 12 }, () => "b")), { recursive: true });
    const events: string[] = [];
    let failA: () => void = () => {};
    const aFailed = new Promise<void>((resolve) => {
      failA = resolve;
    });
    let failures = 0;
    const rel = (dir: string) => path.relative(tree, dir);
    const hooks = {
      afterList: async (dir: string, names: readonly string[]) => {
        events.push(`list ${rel(dir)} ${[...names].sort().join(",")}`);
        if (rel(dir) === "P/A" && failures < times) {
          failures += 1;
          failA();
          throw Object.assign(new Error(`injected ${code}`), { code });
        }
        if (rel(dir) === "P/B") await aFailed;
      },
      beforeClose: (dir: string) => events.push(`close ${rel(dir)}`),
    };
    return { tree, events, hooks };
  }

  it("lets every sibling's removal settle before it closes their parent, then throws the first failure", async () => {
    const { tree, events, hooks } = await failingSibling("EIO");
    await expect(removeTreeNoFollow(tree, hooks)).rejects.toThrow("injected EIO");
    const closedP = events.indexOf("close P");
    const underB = events
      .map((event, index) => ({ event, index }))
      .filter(({ event }) => / P\/B/.test(event));
    expect(underB.length, "B's walk").toBeGreaterThan(12);
    // Nothing reached B through P's descriptor once it was closed (the old walk went on 13 levels).
    expect(underB.filter(({ index }) => index > closedP).map(({ event }) => event)).toEqual([]);
    expect(existsSync(path.join(tree, "P", "B")), "B, removed in full").toBe(false);
    expect(existsSync(path.join(tree, "P", "A")), "A, whose removal failed").toBe(true);
  });

  it("starts the EACCES retry of a directory only once its first pass has settled", async () => {
    const { tree, events, hooks } = await failingSibling("EACCES", 2);
    await removeTreeNoFollow(tree, hooks);
    expect(existsSync(tree)).toBe(false);
    // The retry lists P once B's first-pass walk is over: only A is left (the old walk listed B
    // again and walked it twice at once).
    expect(events.filter((event) => event.startsWith("list P "))).toEqual(["list P A,B", "list P A"]);
    const retried = events.indexOf("list P A");
    expect(events.slice(retried).filter((event) => / P\/B/.test(event))).toEqual([]);
  });

  it("throws a coded error naming the directory when the round cap is reached, not a bare ENOTEMPTY", async () => {
    const tree = path.join(tempDirForTest(), "run");
    // Two rounds' worth of depth: one round cannot empty it.
    await mkdir(path.join(tree, ...Array.from({ length: 3 * MAX_OPEN_DIRECTORIES }, () => "d")), {
      recursive: true,
    });
    const failure = await removeTreeNoFollow(tree, {}, { maxRounds: 1 }).catch((error: unknown) => error);
    expect(PaperclipError.is(failure, "ERR_SANDBOX_CLEANUP_UNFINISHED")).toBe(true);
    expect((failure as PaperclipError).details).toEqual({ dir: tree, rounds: 1, entriesLeft: 1 });
    expect((failure as Error).message).toBe(
      `Sandbox cleanup gave up on "${tree}" after 1 rounds with 1 entries left.`,
    );
    await removeTreeNoFollow(tree);
    expect(existsSync(tree)).toBe(false);
  });

  it("throws the coded error and keeps the owner record when an entry appears at the top mid-walk", async () => {
    const tree = path.join(tempDirForTest(), "run");
    // A directory too full for the quick path, so the walk takes it (and calls beforeClose).
    await mkdir(path.join(tree, "full"), { recursive: true });
    for (let i = 0; i < 20; i += 1) await writeFile(path.join(tree, "full", `f${i}`), "x");
    await writeFile(path.join(tree, "owner.json"), "{}");
    let written = false;
    const hooks = {
      // Something still writing at the top while the round runs: the round moves nothing up.
      beforeClose: (dir: string) => {
        if (dir !== path.join(tree, "full") || written) return;
        written = true;
        writeFileSync(path.join(tree, "late"), "x");
      },
    };
    const failure = await removeTreeNoFollow(tree, hooks, { removeLast: "owner.json" }).catch(
      (error: unknown) => error,
    );
    expect(written).toBe(true);
    // The old walk left the loop, removed the record, then failed with a bare ENOTEMPTY.
    expect(PaperclipError.is(failure, "ERR_SANDBOX_CLEANUP_UNFINISHED")).toBe(true);
    expect((failure as PaperclipError).details).toEqual({ dir: tree, rounds: 1, entriesLeft: 1 });
    expect(await readFile(path.join(tree, "owner.json"), "utf8")).toBe("{}");
    expect(existsSync(path.join(tree, "late"))).toBe(true);
    await removeTreeNoFollow(tree, {}, { removeLast: "owner.json" });
    expect(existsSync(tree)).toBe(false);
  });

  it("removes the entry named removeLast only once everything else is gone", async () => {
    const tree = path.join(tempDirForTest(), "run");
    await mkdir(path.join(tree, "0", "full"), { recursive: true });
    await writeFile(path.join(tree, "0", "full", "file"), "x");
    await writeFile(path.join(tree, "owner.json"), "{}");
    const failure = await removeTreeNoFollow(
      tree,
      {
        afterList: (dir) => {
          if (dir.endsWith("/full")) throw Object.assign(new Error("injected EBUSY"), { code: "EBUSY" });
        },
      },
      { removeLast: "owner.json" },
    ).catch((error: unknown) => error);
    expect((failure as Error).message).toBe("injected EBUSY");
    expect(await readFile(path.join(tree, "owner.json"), "utf8")).toBe("{}");
    await removeTreeNoFollow(tree, {}, { removeLast: "owner.json" });
    expect(existsSync(tree)).toBe(false);
  });
});
