import { readFileSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { removeOwnerRecord } from "./owner-record.js";
import { OWNER_RECORD_NAME } from "./owner-record-location.js";
import { emptiedInPlace, removedInPlace } from "./remove-in-place-sync.js";

/** The mask directory `index` of a run directory: `<runDir>/<index>`, made `0`…`n-1` in order. */
export function maskDirPath(runDir: string, index: number): string {
  return path.join(runDir, String(index));
}

/**
 * Removes a run directory that lies in a private socket root by its known entries,
 * without listing it: the mount points bwrap made right in its masks (`maskMountPoints`),
 * its mask directories `0`…`maskCount-1`, its owner record and itself, by path (neither
 * `rmdir` nor `unlink` follows a link in the last component, no sandbox sees the root to
 * swap a directory on the way, and a mask is a mount point in its sandbox, which cannot
 * replace it). A mask still not empty (what the program left, or a mount point that
 * holds another) is emptied as the walk does it, through an `O_NOFOLLOW` descriptor
 * (`emptiedInPlace`).
 *
 * Never throws: `false` when anything resisted (an entry it does not know, a mask too
 * full, any error), and the caller's no-follow walk removes what is left. The owner
 * record is then still there, for a later sweep should the walk fail too.
 */
export function removedByKnownEntries(
  runDir: string,
  maskCount: number,
  mountPoints: readonly string[] = [],
  /** The record's text, when the caller wrote it (`ownRecordText`): else read back, to put back. */
  recordText?: string,
): boolean {
  try {
    // One that resists (not empty, not there) is left to the mask's own removal below.
    for (const point of mountPoints) removedInPlace(point);
    for (let index = 0; index < maskCount; index += 1) {
      const mask = maskDirPath(runDir, index);
      try {
        rmdirSync(mask);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOTEMPTY" || !emptiedInPlace(mask)) return false;
      }
    }
    const record = path.join(runDir, OWNER_RECORD_NAME);
    const text = recordText ?? readFileSync(record);
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
