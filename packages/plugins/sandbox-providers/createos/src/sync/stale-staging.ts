import type { Stats } from "node:fs";
import { readFileSync } from "node:fs";
import { lstat, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ownStagingOwner, parseStagingName, type StagingOwner, UNKNOWN } from "./staging-name.js";

/**
 * The staging names this process is using now (process-wide, should the module be loaded twice):
 * a restarted container's worker often has its predecessor's pid, so an entry with this pid,
 * namespace and boot is this process's only if it is listed here.
 */
const LIVE_KEY = Symbol.for("@paperclipai/plugin-createos/live-staging");
const shared = globalThis as Record<symbol, Set<string> | undefined>;
const live: Set<string> = shared[LIVE_KEY] ?? new Set();
shared[LIVE_KEY] = live;

/**
 * Marks `path` (and its `.old`) as in use by this process: no sweep removes it until released.
 * Kept by name (its random part makes it unique), not by path: the same target reached through
 * another spelling of its directory (a symlinked parent) is still this process's.
 */
export function holdStaging(path: string): string {
  live.add(basename(path));
  return path;
}

export function releaseStaging(path: string): void {
  live.delete(basename(path));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's. Only "no such process" is dead.
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** When this kernel booted (`btime` of `/proc/stat`), in ms; undefined when it cannot be told. */
function bootTimeMs(): number | undefined {
  try {
    const btime = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"));
    return btime ? Number(btime[1]) * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** What the sweep knows of one entry and of the sweeping process. */
export interface OwnerFacts {
  /** Undefined: a name from before the owner was written. */
  readonly owner: StagingOwner | undefined;
  /** The entry's last status change. */
  readonly ctimeMs: number;
  /** This process is using the entry now. */
  readonly held: boolean;
  readonly self: StagingOwner;
  /** When this kernel booted, if known. */
  readonly bootTimeMs: number | undefined;
}

/**
 * Pure: whether the process that made a staging entry is certainly gone. Another boot's is, if
 * the entry predates this boot (this machine rebooted since); one changed since this boot was
 * made by another kernel that shares the target (NFS, a microVM's shared folder) and may still
 * run: left. Another pid namespace's (a container sharing the target) cannot be judged: its pids
 * mean other processes here, so it is left. In this namespace, this process's pid is a
 * predecessor's unless this process holds the entry; any other pid is judged by whether it runs.
 * An entry named before the owner was written (its pid, if any, of no known namespace) is judged
 * as another boot's: this boot's processes cannot have left it unchanged since before this boot,
 * so only one older than this boot is gone.
 */
export function isOwnerGone(facts: OwnerFacts, running: (pid: number) => boolean): boolean {
  const { owner, self } = facts;
  const predatesBoot = facts.bootTimeMs !== undefined && facts.ctimeMs < facts.bootTimeMs;
  if (owner === undefined) return predatesBoot;
  if (owner.boot !== UNKNOWN && self.boot !== UNKNOWN && owner.boot !== self.boot) return predatesBoot;
  if (self.ns === UNKNOWN || owner.ns !== self.ns || owner.pid <= 0) return false;
  if (owner.pid === self.pid) return !facts.held;
  return !running(owner.pid);
}

interface Stale {
  readonly path: string;
  readonly old: boolean;
  readonly stat: Stats;
}

/**
 * Clears what syncs to `target` whose process is gone left beside it (their staging entries are
 * named `.<target>.paperclip-sync-n<pidns>-b<boot>-p<pid>-<random>`: a staging directory, a
 * single file's temporary file, a replaced tree's `.old`). Only names of that exact pattern, only
 * entries this user owns, never a link (nor, removing, a link below one). A worker killed between
 * moving the old tree aside and moving the new one in left `target` missing and its only copy in
 * that `.old`: it is put back as `target`, not removed. Names from before the owner was written
 * are removed only once they predate this boot. Best effort: an entry that cannot be judged, moved or removed is left for the next sync.
 */
export async function sweepStaleStaging(target: string): Promise<void> {
  const dir = dirname(target);
  const uid = process.getuid?.();
  const stale: Stale[] = [];
  const self = ownStagingOwner();
  const booted = bootTimeMs();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const parsed = parseStagingName(target, name);
    if (parsed === undefined) continue;
    const path = join(dir, name);
    const stat = await lstat(path).catch(() => undefined);
    if (stat === undefined || stat.isSymbolicLink() || (uid !== undefined && stat.uid !== uid)) continue;
    const held = live.has(name.replace(/\.old$/, ""));
    const facts = { owner: parsed.owner, ctimeMs: stat.ctimeMs, held, self, bootTimeMs: booted };
    if (isOwnerGone(facts, isAlive)) stale.push({ path, old: parsed.old, stat });
  }
  let restored: Stale | undefined;
  if (stale.some((entry) => entry.old) && (await lstat(target).catch(() => undefined)) === undefined) {
    // Several: the one moved aside last (a rename sets its ctime) held the newest tree.
    const olds = stale.filter((entry) => entry.old).sort((a, b) => b.stat.ctimeMs - a.stat.ctimeMs);
    for (const candidate of olds) {
      const moved = await rename(candidate.path, target).then(
        () => true,
        () => false,
      );
      if (moved) {
        restored = candidate;
        break;
      }
    }
  }
  for (const entry of stale) {
    if (entry !== restored) await rm(entry.path, { recursive: true, force: true }).catch(() => undefined);
  }
}
