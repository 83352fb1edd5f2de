import {
  lstatSync,
  mkdirSync,
  readdirSync,
  rmdirSync,
  rmSync,
  type Stats,
  statfsSync,
  unlinkSync,
} from "node:fs";
import path from "node:path";
import { removeOwnerRecord } from "./owner-record.js";
import { OWNER_RECORD_NAME } from "./owner-record-location.js";

/** `statfs` type of tmpfs, where a directory's size counts its entries (`BOGO_DIRENT_SIZE` each). */
const TMPFS_MAGIC = 0x01021994;

/** A run directory made ahead of need: its owner record and `maskCount` empty mask directories `0`…`n-1`. */
interface StagedRunDir {
  readonly dir: string;
  readonly dev: number;
  readonly ino: number;
  readonly maskCount: number;
  /** The record's size as written: a record rewritten since has another (or another inode). */
  readonly recordSize: number;
  readonly recordIno: number;
  /**
   * Sizes seen right after staging, when the content was known, on a filesystem whose
   * directory size counts entries (tmpfs): the same size later means as many entries.
   * `null` elsewhere: a claim lists the directories instead.
   */
  readonly sizes: { readonly dir: number; readonly mask: number } | null;
}

export interface ClaimedRunDir {
  readonly dir: string;
  /** Mask directories `0`…`n-1` that exist already (empty, 0700, this uid's). */
  readonly maskCount: number;
}

let staged: StagedRunDir | null = null;
let staging = false;
let exitHookSet = false;

const maskPath = (dir: string, index: number): string => path.join(dir, String(index));

/** This uid's own directory, mode 0700, nothing else: what a fresh `mkdtemp`/`mkdir` gives. */
function isPrivateDirectory(stats: Stats | undefined, uid: number): stats is Stats {
  return stats?.isDirectory() === true && stats.uid === uid && (stats.mode & 0o7777) === 0o700;
}

/** Removes a staged directory by its known entries (all in a private root no sandbox sees), else the whole tree. */
function removeStagedSync(entry: StagedRunDir): void {
  try {
    for (let index = 0; index < entry.maskCount; index += 1) rmdirSync(maskPath(entry.dir, index));
    unlinkSync(path.join(entry.dir, OWNER_RECORD_NAME));
    rmdirSync(entry.dir);
  } catch {
    rmSync(entry.dir, { recursive: true, force: true });
  }
}

function removeStagedAtExit(): void {
  const left = staged;
  staged = null;
  if (left) removeStagedSync(left);
}

/**
 * Whether `entry` is exactly as it was staged: the same directory (inode), this uid's
 * own, 0700, holding its record (same inode and size) and its mask directories, each
 * this uid's own, 0700, and empty; nothing else. Anything else (a directory swapped,
 * an entry added, a mode changed) fails the claim.
 */
function isUntouched(entry: StagedRunDir, uid: number): boolean {
  try {
    const top = lstatSync(entry.dir, { throwIfNoEntry: false });
    if (!isPrivateDirectory(top, uid) || top.dev !== entry.dev || top.ino !== entry.ino) return false;
    const record = lstatSync(path.join(entry.dir, OWNER_RECORD_NAME), { throwIfNoEntry: false });
    if (!record?.isFile() || record.uid !== uid || record.nlink !== 1) return false;
    if (record.ino !== entry.recordIno || record.size !== entry.recordSize) return false;
    if (entry.sizes ? top.size !== entry.sizes.dir : !hasExactly(entry)) return false;
    for (let index = 0; index < entry.maskCount; index += 1) {
      const mask = lstatSync(maskPath(entry.dir, index), { throwIfNoEntry: false });
      if (!isPrivateDirectory(mask, uid) || mask.nlink !== 2) return false;
      if (entry.sizes ? mask.size !== entry.sizes.mask : readdirSync(maskPath(entry.dir, index)).length > 0)
        return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** Listing check, where a directory's size says nothing of its entries: the record and the masks, nothing else. */
function hasExactly(entry: StagedRunDir): boolean {
  const expected = new Set([
    OWNER_RECORD_NAME,
    ...Array.from({ length: entry.maskCount }, (_, i) => String(i)),
  ]);
  const names = readdirSync(entry.dir);
  return names.length === expected.size && names.every((name) => expected.has(name));
}

/**
 * Takes the staged run directory, if one is ready and untouched since it was made; a
 * directory that fails the check is removed, never used. `null`: the caller creates a
 * fresh one.
 */
export function claimStagedRunDir(): ClaimedRunDir | null {
  const entry = staged;
  if (!entry) return null;
  staged = null;
  if (isUntouched(entry, process.getuid?.() ?? 0)) return { dir: entry.dir, maskCount: entry.maskCount };
  removeStagedSync(entry);
  // The record went with the directory; only this process's note of where it wrote it is left.
  removeOwnerRecord(entry.dir).catch(() => {});
  return null;
}

/**
 * Directory sizes that count entries, checked on the directory just made: on tmpfs an
 * empty directory's size and each entry's share. `null` when the sizes do not follow
 * that rule (another filesystem, another kernel): a claim then lists the directories.
 */
function entryCountingSizes(dir: string, maskCount: number): StagedRunDir["sizes"] {
  try {
    if (statfsSync(dir).type !== TMPFS_MAGIC || maskCount === 0) return null;
    const empty = lstatSync(maskPath(dir, 0)).size;
    const top = lstatSync(dir).size;
    // An empty directory's size plus one share per entry (the record and each mask), shares all alike.
    const share = (top - empty) / (maskCount + 1);
    if (!(empty > 0 && share > 0 && Number.isInteger(share))) return null;
    for (let index = 1; index < maskCount; index += 1) {
      if (lstatSync(maskPath(dir, index)).size !== empty) return null;
    }
    return { dir: top, mask: empty };
  } catch {
    return null;
  }
}

/**
 * Makes the next run's directory now (`create` makes it with its owner record), with
 * `maskCount` empty mask directories, so that a build only claims it. At most one is
 * staged; one left at this process's exit is removed then, and one left by a crash is
 * a dead owner's directory for the stale sweep. Failures are silent: the next build
 * creates its own.
 */
export function stageRunDir(create: () => string | null, maskCount: number): void {
  if (staged || staging) return;
  staging = true;
  try {
    const dir = create();
    if (dir === null) return;
    let entry: StagedRunDir;
    try {
      for (let index = 0; index < maskCount; index += 1) mkdirSync(maskPath(dir, index), { mode: 0o700 });
      const top = lstatSync(dir);
      const record = lstatSync(path.join(dir, OWNER_RECORD_NAME));
      entry = {
        dir,
        dev: top.dev,
        ino: top.ino,
        maskCount,
        recordSize: record.size,
        recordIno: record.ino,
        sizes: entryCountingSizes(dir, maskCount),
      };
    } catch {
      rmSync(dir, { recursive: true, force: true });
      return;
    }
    if (!exitHookSet) {
      exitHookSet = true;
      process.once("exit", removeStagedAtExit);
    }
    staged = entry;
  } catch {
  } finally {
    staging = false;
  }
}

/** For tests: the directory staged now, if any. */
export function stagedRunDirPath(): string | null {
  return staged?.dir ?? null;
}
