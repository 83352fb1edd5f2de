import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { isSameOrBelow } from "../bwrap/mount-request.js";

/** A mount point as `/proc/self/mountinfo` writes it: space, tab, newline and backslash octal-escaped. */
function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_match, octal: string) =>
    String.fromCharCode(Number.parseInt(octal, 8)),
  );
}

/**
 * Whether the mount holding `file` (an absolute real path) is mounted `noexec`, from the
 * text of `/proc/self/mountinfo` (pure): the deepest mount point above it, the last one
 * listed when mounts are stacked there. `false` when no mount is listed for it.
 */
export function mountForbidsExec(mountinfo: string, file: string): boolean {
  let deepest: { point: string; noexec: boolean } | null = null;
  for (const line of mountinfo.split("\n")) {
    const fields = line.split(" ");
    const point = fields[4];
    const options = fields[5];
    if (point === undefined || options === undefined) continue;
    const mountPoint = unescapeMountPath(point);
    if (!isSameOrBelow(mountPoint, file)) continue;
    if (deepest && mountPoint.length < deepest.point.length) continue;
    deepest = { point: mountPoint, noexec: options.split(",").includes("noexec") };
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
