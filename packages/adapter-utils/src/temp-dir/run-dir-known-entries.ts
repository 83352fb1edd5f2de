import { readFileSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { removeOwnerRecord } from "./owner-record.js";
import { OWNER_RECORD_NAME } from "./owner-record-location.js";
import { emptiedInPlace } from "./remove-in-place-sync.js";

/** The mask directory `index` of a run directory: `<runDir>/<index>`, made `0`…`n-1` in order. */
export function maskDirPath(runDir: string, index: number): string {
  return path.join(runDir, String(index));
}

/**
 * Removes a run directory that lies in a private socket root by its known entries,
 * without listing it: its mask directories `0`…`maskCount-1`, its owner record and
 * itself, by path (neither `rmdir` nor `unlink` follows a link, and no sandbox sees the
 * root to swap a directory on the way). A mask that is not empty (the private /tmp
 * holding the mount point of a path bound back, or what the program left) is emptied
 * as the walk does it, through an `O_NOFOLLOW` descriptor (`emptiedInPlace`).
 *
 * Never throws: `false` when anything resisted (an entry it does not know, a mask too
 * full, any error), and the caller's no-follow walk removes what is left. The owner
 * record is then still there, for a later sweep should the walk fail too.
 */
export function removedByKnownEntries(runDir: string, maskCount: number): boolean {
  try {
    for (let index = 0; index < maskCount; index += 1) {
      const mask = maskDirPath(runDir, index);
      try {
        rmdirSync(mask);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOTEMPTY" || !emptiedInPlace(mask)) return false;
      }
    }
    const record = path.join(runDir, OWNER_RECORD_NAME);
    const text = readFileSync(record);
    unlinkSync(record);
    try {
      rmdirSync(runDir);
    } catch (error) {
      // Something it does not know is left: the record goes back, for the walk to remove last.
      writeFileSync(record, text, { mode: 0o600 });
      throw error;
    }
  } catch {
    return false;
  }
  // Only this process's note of where it wrote the record is left: the record lived inside.
  removeOwnerRecord(runDir).catch(() => {});
  return true;
}
