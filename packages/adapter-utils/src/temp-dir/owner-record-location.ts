import { createHash } from "node:crypto";
import path from "node:path";
import { isSameOrBelow } from "../bwrap/mount-request.js";

/** File in each per-run directory inside a private socket root naming the process that owns it. */
export const OWNER_RECORD_NAME = "owner.json";
/** Directory in a private socket root holding the owner records of per-run directories outside every root. */
export const OWNER_REGISTRY_NAME = "owners";

/**
 * Where the owner record of the per-run directory `dir` may live, in order. The
 * sweep kills and removes on a record's word, so a record must sit where no
 * sandbox can write: the private socket roots, which every sandbox hides. A
 * directory inside a root keeps its record inside itself; any other (upstream's
 * proxy directory, the deny scope's run directory, on `/tmp`, a `TMPDIR` or a
 * caller's base that a network-only sandbox may see and rewrite) has it in a
 * root's registry, named by a hash of its path.
 */
export function ownerRecordLocations(dir: string, roots: readonly string[]): string[] {
  if (roots.some((root) => isSameOrBelow(root, dir) && root !== dir))
    return [path.join(dir, OWNER_RECORD_NAME)];
  const name = `${createHash("sha256").update(dir).digest("hex").slice(0, 40)}.json`;
  return roots.map((root) => path.join(root, OWNER_REGISTRY_NAME, name));
}
