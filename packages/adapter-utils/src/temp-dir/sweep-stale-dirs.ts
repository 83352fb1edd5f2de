import { lstat, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { privateSocketRootsInUse } from "./hidden-socket-roots.js";
import { isOwnerAlive, readOwnerRecord, readOwnerRegistry } from "./owner-record.js";
import { removeProxyTempDir } from "./remove-proxy-temp-dir.js";
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
 * Kills processes whose command line names `dir`: a bwrap child that was still
 * setting up the sandbox when its host died can miss bwrap's parent-death signal
 * and block forever. The directory name is random, so nothing else matches.
 */
export async function killProcessesUsing(dir: string): Promise<number[]> {
  const killed: number[] = [];
  let names: string[];
  try {
    names = await readdir("/proc");
  } catch {
    return killed;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, "utf8").catch(() => "");
    if (!cmdline.split("\0").some((arg) => arg === dir || arg.startsWith(`${dir}/`))) continue;
    try {
      process.kill(Number(name), "SIGKILL");
      killed.push(Number(name));
    } catch {}
  }
  return killed;
}

/**
 * Removes per-run directories under `baseDir` whose owner process is gone. The
 * owner is read only from a record no sandbox can write (`owner-record-location.ts`),
 * never from a file in `baseDir`, which a network-only sandbox may see and rewrite.
 * A directory without such a record is left alone: it may be mid-creation, or not
 * ours at all (upstream uses the same prefix and records no owner).
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
      await killProcessesUsing(dir);
      // A directory that resisted keeps its record: a later sweep tries again.
      if (await removeProxyTempDir(dir)) removed.push(dir);
    } catch {
      // Another process may be sweeping the same directory; losing that race is fine.
    }
  }
  return removed;
}

/**
 * Sweeps the owner registries of the private socket roots: a directory whose
 * owner is gone is removed wherever it lives (a base this process never tries
 * again included), and so is the record. A directory that is no longer ours (not
 * a directory of this uid with the run prefix: a sandbox may have swapped it) is
 * left alone; its record still goes. Returns the removed directories.
 */
export async function sweepOwnerRegistries(
  roots: readonly string[] = privateSocketRootsInUse(),
): Promise<string[]> {
  const uid = process.getuid?.() ?? -1;
  const removed: string[] = [];
  for (const root of roots) {
    for (const entry of await readOwnerRegistry(root)) {
      if (isOwnerAlive(entry.owner)) continue;
      try {
        const stats = await lstat(entry.dir).catch(() => null);
        const ours =
          stats?.isDirectory() &&
          stats.uid === uid &&
          path.basename(entry.dir).startsWith(NETWORK_PROXY_TEMP_PREFIX);
        if (ours) {
          await killProcessesUsing(entry.dir);
          // One that resisted keeps its record (removeProxyTempDir), for a later sweep.
          if (!(await removeProxyTempDir(entry.dir))) continue;
          removed.push(entry.dir);
        }
        await rm(entry.location, { force: true });
      } catch {
        // Another process may be sweeping the same registry; losing that race is fine.
      }
    }
  }
  return removed;
}

let lastRegistrySweep: number | undefined;

/** `sweepOwnerRegistries`, at most once per `SWEEP_INTERVAL_MS` per process. */
export async function sweepOwnerRegistriesThrottled(now = Date.now()): Promise<string[]> {
  if (lastRegistrySweep !== undefined && now - lastRegistrySweep < SWEEP_INTERVAL_MS) return [];
  lastRegistrySweep = now;
  return sweepOwnerRegistries();
}
