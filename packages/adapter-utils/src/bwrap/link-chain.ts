import { lstatSync, readlinkSync } from "node:fs";
import path from "node:path";

/** More links than this on one path is a loop (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/**
 * Every symlink met while resolving `start`, in order, as absolute host paths: the path
 * itself when it is one, and each link its target passes through (Debian's resolvconf:
 * `/etc/resolv.conf -> /etc/resolvconf/run/resolv.conf`, `/etc/resolvconf/run ->
 * /run/resolvconf`). Whoever can replace any of them chooses what the path names.
 * Stops where a component is missing.
 */
export function linkChain(start: string): string[] {
  const links: string[] = [];
  let pending = start.split("/").filter(Boolean);
  let current = "/";
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === ".") continue;
    if (part === "..") {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      return links;
    }
    if (!isLink) {
      current = next;
      continue;
    }
    if (links.length === MAX_LINKS) return links;
    links.push(next);
    const target = readlinkSync(next);
    pending = [...target.split("/").filter(Boolean), ...pending];
    if (path.isAbsolute(target)) current = "/";
  }
  return links;
}
