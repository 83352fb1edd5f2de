import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { holdStaging, releaseStaging } from "./held-staging.js";
import { supersedingPendingRestores } from "./pending-restores.js";
import { newStagingPath, newTreePath, nowMicros, treeClock } from "./staging-name.js";
import { sweepStaleStaging } from "./stale-staging.js";

/**
 * Writes a host file atomically, with its mode set before any byte is written (no
 * world-readable window): a temporary file beside the target, filled chunk by chunk as
 * `source` yields them, then a rename.
 */
export async function writeHostFileAtomic(
  target: string,
  source: AsyncIterable<Uint8Array>,
  mode: number | undefined,
): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  await sweepStaleStaging(target);
  const temp = holdStaging(newStagingPath(target));
  try {
    await writeThenRename(temp, target, source, mode ?? 0o644);
  } finally {
    releaseStaging(temp);
  }
}

async function writeThenRename(
  temp: string,
  target: string,
  source: AsyncIterable<Uint8Array>,
  fileMode: number,
): Promise<void> {
  const handle = await open(temp, "wx", 0o600);
  try {
    // `open`'s mode is filtered by the umask; chmod makes it exact, still before the bytes.
    await handle.chmod(fileMode);
    for await (const chunk of source) await handle.write(chunk);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await supersedingPendingRestores(target, "file", () => rename(temp, target));
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * A private staging directory beside `target` (same filesystem, so promotion is a rename), once
 * what crashed syncs to the same target left there is swept; held by this process (and kept
 * from any sweep) until `releaseStaging`.
 */
export async function makeStagingDir(target: string): Promise<string> {
  await mkdir(dirname(target), { recursive: true });
  await sweepStaleStaging(target);
  const staging = holdStaging(newStagingPath(target));
  try {
    await mkdir(staging, { mode: 0o700 });
  } catch (error) {
    releaseStaging(staging);
    throw error;
  }
  return staging;
}

/**
 * Replaces `target` with the staged directory; the old tree is removed only after the swap. A
 * sweep's pending restore of an older tree to `target` is taken first and removed with it.
 */
export async function promoteDirectory(staging: string, target: string): Promise<void> {
  await supersedingPendingRestores(target, "directory", () => swapIn(staging, target));
}

async function swapIn(staging: string, target: string): Promise<void> {
  const existing = await stat(target).catch(() => undefined);
  if (existing === undefined) {
    await rename(staging, target);
    return;
  }
  const old = await moveAside(target);
  try {
    try {
      await rename(staging, target);
    } catch (error) {
      await rename(old, target).catch(() => undefined);
      throw error;
    }
    await rm(old, { recursive: true, force: true });
  } finally {
    releaseStaging(old);
  }
}

/**
 * Moves `target` aside as this process's held `.old`, named for a hash of the target's name (it
 * fits wherever the staging did; `<staging>.old` does not when the staging's name is near
 * NAME_MAX) and with when it left the target: between a time taken before the rename and one
 * taken after, noted by a second rename (a sweep puts back the newest of several hidden trees).
 */
async function moveAside(target: string): Promise<string> {
  const from = nowMicros();
  const clock = treeClock();
  const aside = holdStaging(newTreePath(target, "old", { clock, from, until: undefined }));
  try {
    await rename(target, aside);
  } catch (error) {
    releaseStaging(aside);
    throw error;
  }
  const noted = holdStaging(newTreePath(target, "old", { clock, from, until: nowMicros() }));
  const moved = await rename(aside, noted).then(
    () => true,
    () => false,
  );
  releaseStaging(moved ? aside : noted);
  return moved ? noted : aside;
}
