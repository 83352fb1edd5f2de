import path from "node:path";
import { argvMounts } from "./final-binds.js";

/**
 * The host paths of the mount points bwrap makes directly in the run's mask directories
 * (pure): a path bound back over `/tmp` (a workspace `/tmp/ws`) is mounted on a directory
 * bwrap creates in the private `/tmp`, `<runDir>/0/ws` on the host, which outlives the
 * sandbox. Knowing them, the cleanup removes each with one `rmdir` by path instead of
 * opening and listing the mask (`removedByKnownEntries`). Only entries right in a mask:
 * the mask is a mount point inside the sandbox (it cannot be renamed, nor a link put in
 * its place) and `rmdir` follows no link in the last component, where a deeper path could
 * pass a directory the program swapped for a link.
 */
export function maskMountPoints(args: readonly string[], maskDirs: readonly string[]): string[] {
  if (maskDirs.length === 0) return [];
  const mounts = argvMounts(args);
  const maskAt = new Map<string, string>();
  for (const { bind } of mounts)
    if (bind && maskDirs.includes(bind.source)) maskAt.set(bind.dest, bind.source);
  const points = new Set<string>();
  for (const { dest } of mounts) {
    const mask = maskAt.get(path.dirname(dest));
    if (mask !== undefined) points.add(`${mask}/${path.basename(dest)}`);
  }
  return [...points];
}
