import type { Stats } from "node:fs";
import { readFileSync } from "node:fs";
import { lstat, readdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isHeld } from "./held-staging.js";
import { restoreTree } from "./restore-tree.js";
import {
  type LeftTarget,
  ownStagingOwner,
  parseStagingName,
  type StagingOwner,
  UNKNOWN,
} from "./staging-name.js";
import { newestTree, supersedes } from "./tree-order.js";

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
  /** A replaced tree (`.old`, `.restore`, `.released`): the user's, to put back if the target is missing. */
  readonly tree: boolean;
  readonly stat: Stats;
  /** For a tree named with it: when it left the target. */
  readonly left: LeftTarget | undefined;
}

/**
 * The staging entries beside `target` now: those whose process is gone (only this user's, never a
 * link), and the names of the others but links (no sync makes one), which may belong to a
 * running sync.
 */
async function judgeStaging(target: string): Promise<{ stale: Stale[]; running: string[] }> {
  const dir = dirname(target);
  const uid = process.getuid?.();
  const stale: Stale[] = [];
  const running: string[] = [];
  const self = ownStagingOwner();
  const booted = bootTimeMs();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const parsed = parseStagingName(target, name);
    if (parsed === undefined) continue;
    const path = join(dir, name);
    const stat = await lstat(path).catch(() => undefined);
    if (stat === undefined || stat.isSymbolicLink()) continue;
    const facts = {
      owner: parsed.owner,
      ctimeMs: stat.ctimeMs,
      held: isHeld(name),
      self,
      bootTimeMs: booted,
    };
    // A released tree was let go of by its maker, running or not: anyone's to put back.
    const gone = parsed.kind === "released" || isOwnerGone(facts, isAlive);
    if ((uid === undefined || stat.uid === uid) && gone)
      stale.push({ path, tree: parsed.kind !== "staging", stat, left: parsed.left });
    else running.push(name);
  }
  return { stale, running };
}

/**
 * Clears what syncs to `target` whose process is gone left beside it (their staging entries are
 * named `.<target>.paperclip-sync-n<pidns>-b<boot>-p<pid>-<random>`: a staging directory, a
 * single file's temporary file, a replaced tree's `.old` from an earlier build; and
 * `.paperclip-sync-h<sha256 of target's name>-n<pidns>-b<boot>-p<pid>-<uuid>`: a replaced tree's
 * `.old`, a tree being put back's `.restore`, one let go of for any sweep, `.released`).
 * Only names of that exact pattern, only entries this user owns, never a link (nor, removing, a
 * link below one). A worker killed between moving the old tree aside and moving the new one in
 * left `target` missing and its only copy in that `.old`: it is put back as `target` (see
 * `restoreTree`), or kept while another sync to the target may run, never removed; of several,
 * only the one that certainly left the target last (see `newestTree`), and none while that cannot
 * be told. A tree is removed only beside a target of its kind (see `supersedes`). Names from
 * before the owner was written are removed only once they predate this boot. Best effort: an
 * entry that cannot be judged, moved or removed is left for the next sync.
 */
export async function sweepStaleStaging(target: string): Promise<void> {
  const { stale, running } = await judgeStaging(target);
  const trees = stale.filter((entry) => entry.tree);
  let found = await lstat(target).catch(() => undefined);
  let kept: readonly Stale[] = [];
  if (trees.length > 0 && found === undefined) {
    const newest = newestTree(trees);
    // While another sync may run the trees are left untouched: a claim would only be let go of
    // again. Nor is any put back while which is the newest cannot be told.
    if (running.length > 0 || newest === undefined) kept = trees;
    else {
      // A tree not in the first listing left the target since: it was promoted meanwhile, by a
      // sync that may have looked for claims before this one was made, then moved aside again.
      const listed = new Set(trees.map((tree) => tree.path));
      const othersMayRun = async (claim: string) => {
        const now = await judgeStaging(target);
        return (
          now.running.some((name) => name !== claim) ||
          now.stale.some((entry) => entry.tree && !listed.has(entry.path))
        );
      };
      const outcome = await restoreTree(newest.path, target, othersMayRun);
      // Only a tree put back, or a target found meanwhile, can have made the others removable.
      if (outcome === "restored" || outcome === "superseded")
        found = await lstat(target).catch(() => undefined);
      else kept = trees;
    }
  }
  for (const entry of stale) {
    // A tree is removed only once the target replaced it: never beside a target of another kind.
    if (kept.includes(entry) || (entry.tree && !supersedes(found, entry.stat))) continue;
    await rm(entry.path, { recursive: true, force: true }).catch(() => undefined);
  }
}
