import { lstatSync, readlinkSync, type Stats } from "node:fs";
import path from "node:path";
import { isSameOrBelow } from "./mount-request.js";

/** The kernel's limit on links followed in one lookup (`ELOOP` beyond it). */
const MAX_LINKS = 40;

/**
 * The place in `/proc` that resolving `candidate` reaches through a link, or `null`.
 * Such a place belongs to whichever process resolves it: `/proc/self/cwd`, `/proc/self/fd/N`
 * or `/dev/fd` name the builder's working directory and open files here, the program's own
 * inside the sandbox (`/proc/self` is itself a link). A path that goes there means one file
 * to the host and another to the sandbox. A path spelt in `/proc` without links (`/proc/sys`)
 * is not reported. Resolves component by component as the kernel does; stops, with `null`,
 * at a missing component or a loop (bwrap refuses those itself). A link swapped away while
 * it is read is reported as well, by its own path: what it named cannot be known.
 */
export function procLinkOnPath(candidate: string): string | null {
  const pending = candidate.split("/").reverse();
  let current = "/";
  let followed = 0;
  while (pending.length > 0) {
    const part = pending.pop()!;
    if (part === "" || part === ".") continue;
    // `current` holds no link, so its parent is lexical.
    if (part === "..") {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    // lstat, not a failing readlink, for the usual non-link: a thrown error costs microseconds.
    let stats: Stats | undefined;
    try {
      stats = lstatSync(next, { throwIfNoEntry: false });
    } catch {
      return null;
    }
    if (stats === undefined) return null;
    if (!stats.isSymbolicLink()) {
      if (followed > 0 && next !== "/proc" && isSameOrBelow("/proc", next)) return next;
      current = next;
      continue;
    }
    if (isSameOrBelow("/proc", next)) return next;
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      // Swapped since the lstat: a path in flux is treated as unsafe to derive mounts from.
      return next;
    }
    followed += 1;
    if (followed > MAX_LINKS) return null;
    pending.push(...target.split("/").reverse());
    if (path.isAbsolute(target)) current = "/";
  }
  return null;
}
