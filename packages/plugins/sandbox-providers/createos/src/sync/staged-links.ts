import { lstat, readlink } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { unsafeEntry } from "./archive-entry.js";

// Linux's own bound on the links one path resolution follows (ELOOP past it).
const MAX_LINKS_FOLLOWED = 40;

/**
 * Whether the link at `linkPath` (relative to `root`) leads out of `root` when followed as the
 * kernel follows it: every component that is itself a link is replaced by its target on the way,
 * and `..` climbs from where that led. A name that does not exist is taken as a plain name.
 */
async function leadsOut(root: string, linkPath: string): Promise<boolean> {
  const resolved: string[] = [];
  const pending = linkPath.split("/");
  for (let followed = 0; pending.length > 0; ) {
    const part = pending.shift() as string;
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (resolved.length === 0) return true;
      resolved.pop();
      continue;
    }
    resolved.push(part);
    const here = join(root, ...resolved);
    if (!(await lstat(here).catch(() => undefined))?.isSymbolicLink()) continue;
    // The kernel gives up here (ELOOP): such a path leads nowhere, out of the tree included.
    if (++followed > MAX_LINKS_FOLLOWED) return false;
    const target = await readlink(here);
    if (isAbsolute(target)) return true;
    resolved.pop();
    pending.unshift(...target.split("/"));
  }
  return false;
}

/**
 * Refuses an extracted tree in which a symbolic link leads out of it. Each entry was checked on
 * its own before it was written, but a link's target read as text cannot tell that a name on its
 * way is another link (`a -> .` makes `b -> a/..` the tree's parent): so every link extracted is
 * followed again on the file system itself, once the whole tree is there. (Entries written
 * through a link, and hard links to one, tar refuses itself: `TAR_SYMLINK_ERROR`.)
 */
export async function assertExtractedLinksInside(root: string, linkPaths: readonly string[]): Promise<void> {
  for (const path of linkPaths) {
    if ((await lstat(join(root, path)).catch(() => undefined))?.isSymbolicLink() !== true) continue;
    if (await leadsOut(root, path)) throw unsafeEntry(path);
  }
}
