import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { isSameOrBelow } from "../bwrap/mount-request.js";
import { parseMountinfo } from "../mountinfo.js";

/**
 * Whether the mount holding `file` (an absolute real path) is mounted `noexec`, from the
 * text of `/proc/self/mountinfo` (pure): the deepest mount point above it, the last one
 * listed when mounts are stacked there. `false` when no mount is listed for it.
 */
export function mountForbidsExec(mountinfo: string, file: string): boolean {
  let deepest: { point: string; noexec: boolean } | null = null;
  for (const { mountPoint, mountOptions } of parseMountinfo(mountinfo)) {
    if (!isSameOrBelow(mountPoint, file)) continue;
    if (deepest && mountPoint.length < deepest.point.length) continue;
    deepest = { point: mountPoint, noexec: mountOptions.includes("noexec") };
  }
  return deepest?.noexec ?? false;
}

let mountinfo: string | undefined;

/**
 * Whether programs cannot run from files under `dir` (its base resolved, `dir` itself
 * may not exist yet). The mount table is read once per process; without `/proc` nothing
 * is known, and `false` lets the caller try.
 */
export function execForbiddenUnder(dir: string): boolean {
  if (mountinfo === undefined) {
    try {
      mountinfo = readFileSync("/proc/self/mountinfo", "utf8");
    } catch {
      mountinfo = "";
    }
  }
  let real: string;
  try {
    real = path.join(realpathSync.native(path.dirname(dir)), path.basename(dir));
  } catch {
    return false;
  }
  return mountForbidsExec(mountinfo, real);
}
