import { lstat, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { isOwnerAlive, readOwnerRecord } from "./owner-record.js";
import { NETWORK_PROXY_TEMP_PREFIX } from "./temp-dir-candidates.js";

/** A base directory is swept at most this often per process: a sweep reads every entry of, say, /tmp. */
export const SWEEP_INTERVAL_MS = 60_000;
const lastSweep = new Map<string, number>();

/** `sweepStaleProxyDirs`, unless this process swept `baseDir` less than `SWEEP_INTERVAL_MS` ago. */
export async function sweepStaleProxyDirsThrottled(baseDir: string, now = Date.now()): Promise<string[]> {
  const previous = lastSweep.get(baseDir);
  if (previous !== undefined && now - previous < SWEEP_INTERVAL_MS) return [];
  lastSweep.set(baseDir, now);
  return sweepStaleProxyDirs(baseDir);
}

/**
 * Removes per-run directories under `baseDir` whose owner process is gone. A
 * directory without a readable owner record is left alone: it may be mid-creation,
 * or not ours at all (upstream uses the same prefix and records no owner).
 * Returns the removed paths.
 */
export async function sweepStaleProxyDirs(baseDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(baseDir);
  } catch {
    return [];
  }
  const uid = process.getuid?.() ?? -1;
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(NETWORK_PROXY_TEMP_PREFIX)) continue;
    const dir = path.join(baseDir, name);
    try {
      const stats = await lstat(dir);
      if (!stats.isDirectory() || stats.uid !== uid) continue;
      const owner = await readOwnerRecord(dir);
      if (!owner || isOwnerAlive(owner)) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // Another process may be sweeping the same directory; losing that race is fine.
    }
  }
  return removed;
}
