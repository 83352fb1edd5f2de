import { createHash, randomUUID } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Who made a staging entry: a pid means something only within its pid namespace (two
 * containers sharing a bind-mounted target each see the other's pids as dead) and its boot
 * (after a reboot every pid named before it is gone). "u": could not be told.
 */
export interface StagingOwner {
  /** The pid namespace's inode; "0" off Linux, where pids are the machine's. */
  readonly ns: string;
  /** The first 16 hex digits of the kernel's boot id. */
  readonly boot: string;
  readonly pid: number;
}

export const UNKNOWN = "u";

function readOwner(): StagingOwner {
  if (process.platform !== "linux") return { ns: "0", boot: UNKNOWN, pid: process.pid };
  let ns = UNKNOWN;
  let boot = UNKNOWN;
  try {
    ns = String(statSync("/proc/self/ns/pid").ino);
  } catch {
    // No /proc: no pid of another process can be judged.
  }
  try {
    const id = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").replace(/[^0-9a-f]/g, "");
    if (id.length >= 16) boot = id.slice(0, 16);
  } catch {
    // Boots cannot be told apart: an older boot's entries are judged by pid alone.
  }
  return { ns, boot, pid: process.pid };
}

let own: StagingOwner | undefined;

/** This process, as its staging names say it. */
export function ownStagingOwner(): StagingOwner {
  own ??= readOwner();
  return own;
}

/** What every staging entry of `target` is named with, before its owner. */
export function stagingBase(target: string): string {
  return `.${basename(target)}.paperclip-sync-`;
}

/** The name a staging entry of `target` made by `owner` has, before its random part. */
export function stagingPrefix(target: string, owner: StagingOwner = ownStagingOwner()): string {
  return `${stagingBase(target)}n${owner.ns}-b${owner.boot}-p${owner.pid}-`;
}

/** A new staging path beside `target`, for this process. */
export function newStagingPath(target: string): string {
  return join(dirname(target), `${stagingPrefix(target)}${randomUUID()}`);
}

const TREE_MARK = ".paperclip-sync-h";

/**
 * What a tree moved between owners is named with, before its owner: a tree a sweep is putting
 * back (`.restore`), one a promotion took from such a sweep (`.old`), one let go of for any sweep
 * (`.released`). The target's name is hashed, not written, so that such a name has a bounded
 * length (at most 253 bytes): named after the target, a claim would be longer than the `.old` it
 * claims, past NAME_MAX where that `.old` just fit, and the tree could never be claimed nor a claim
 * taken.
 */
function treeBase(target: string): string {
  return `${TREE_MARK}${createHash("sha256").update(basename(target)).digest("hex")}-`;
}

/**
 * When a tree left its target, in µs of `clock`: after `from` and before `until` (unknown when
 * the mover died between the two). Carried in the tree's name from the moment it leaves the
 * target through every claim, take and letting go (a ctime ties on consecutive renames and is
 * reset by each), so that a sweep can tell which hidden tree is the newest (see `tree-order`).
 */
export interface LeftTarget {
  /** The clock the times were read on (see `treeClock`); none: the wall clock. */
  readonly clock?: string | undefined;
  readonly from: number;
  readonly until: number | undefined;
}

/**
 * The kernel's monotonic clock, which every process of one boot and one time namespace reads
 * alike and no one can step back: named by the boot's id and the time namespace's inode ("0"
 * for a kernel without time namespaces, which has one such clock). Undefined off Linux or when
 * the boot cannot be told: the wall clock is read instead, and trusted alike on every machine
 * that shares the target.
 */
function readClock(): string | undefined {
  const { boot } = ownStagingOwner();
  if (process.platform !== "linux" || boot === UNKNOWN) return undefined;
  try {
    return `${boot}.${statSync("/proc/self/ns/time").ino}`;
  } catch {
    return `${boot}.0`;
  }
}

let clock: { readonly id: string | undefined } | undefined;

/** The clock `nowMicros` reads (see `readClock`). */
export function treeClock(): string | undefined {
  clock ??= { id: readClock() };
  return clock.id;
}

let lastMicros = 0;

/** Now, in µs of `treeClock()`'s clock; strictly increasing within this process. */
export function nowMicros(): number {
  const now =
    treeClock() === undefined
      ? Math.floor((performance.timeOrigin + performance.now()) * 1000)
      : Number(process.hrtime.bigint() / 1000n);
  lastMicros = Math.max(lastMicros + 1, now);
  return lastMicros;
}

type TreeKind = "old" | "restore" | "released";

/**
 * A new path beside `target` for a tree this process moves there (see `treeBase`), named with
 * when it left the target (none for a tree whose leaving was never told: any order is a guess).
 */
export function newTreePath(target: string, kind: TreeKind, left?: LeftTarget): string {
  const { ns, boot, pid } = ownStagingOwner();
  const until = left?.until === undefined ? "" : `-${left.until}`;
  const on = left?.clock === undefined ? "" : `-c${left.clock}`;
  const when = left === undefined ? "" : `-t${left.from}${until}${on}`;
  return join(dirname(target), `${treeBase(target)}n${ns}-b${boot}-p${pid}-${randomUUID()}${when}.${kind}`);
}

/** A new path for the tree at `tree` moved on as `kind`, keeping when it left the target. */
export function nextTreePath(target: string, tree: string, kind: TreeKind): string {
  return newTreePath(target, kind, parseStagingName(target, basename(tree))?.left);
}

/**
 * What a staging entry holds: a sync's staging (a directory, or a single file's temporary file),
 * a tree a promotion moved aside (`.old`), such a tree a sweep is putting back (`.restore`), or
 * one a sweep or a promotion that could not finish let go of for any later sweep (`.released`).
 */
export type StagingKind = "staging" | "old" | "restore" | "released";

function kindOf(suffix: string | undefined): StagingKind {
  if (suffix === undefined) return "staging";
  return suffix.slice(1) as StagingKind;
}

const OWNER = String.raw`n(\d{1,20}|u)-b([0-9a-f]{16}|u)-p(\d{1,10})-`;
const OWNED = new RegExp(String.raw`^${OWNER}[A-Za-z0-9-]{6,36}(\.old|\.restore)?$`);
/** After `treeBase`: what `newTreePath` makes, exactly. */
const MOVED = new RegExp(
  String.raw`^${OWNER}[0-9a-f-]{36}(?:-t(\d{1,16})(?:-(\d{1,16}))?(?:-c([0-9a-f]{16}\.\d{1,20}))?)?(\.old|\.restore|\.released)$`,
);
/**
 * What releases before the owner was written named their entries (after the base): an optional
 * `<pid>-`, then a single file's temporary `<uuid>`, or a staging directory's `mkdtemp` suffix
 * (six letters or digits) and its replaced tree's `.old`. Exactly these, so a near miss is no
 * staging entry.
 */
const UNOWNED =
  /^(?:\d{1,10}-)?(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9]{6}(\.old)?)$/;

function ownerOf(match: RegExpExecArray): StagingOwner {
  return { ns: match[1]!, boot: match[2]!, pid: Number(match[3]) };
}

export interface StagingEntry {
  readonly owner: StagingOwner | undefined;
  readonly kind: StagingKind;
  /** For a tree named with when it left the target. */
  readonly left?: LeftTarget | undefined;
}

/**
 * The staging entry `name` beside `target`: its owner (undefined for a name from before the
 * owner was written: `<random>` or `<pid>-<random>`) and its kind; undefined when `name` is no
 * staging entry of `target`.
 */
export function parseStagingName(target: string, name: string): StagingEntry | undefined {
  // Hashed only for a name that may be such a tree (a sweep reads every name of the directory);
  // one that is not may still be a staging entry of a target named `paperclip-sync-h…`.
  const moved = name.startsWith(TREE_MARK) ? treeBase(target) : undefined;
  const tree = moved !== undefined && name.startsWith(moved) ? MOVED.exec(name.slice(moved.length)) : null;
  if (tree !== null) {
    const left =
      tree[4] === undefined
        ? undefined
        : {
            from: Number(tree[4]),
            until: tree[5] === undefined ? undefined : Number(tree[5]),
            ...(tree[6] === undefined ? {} : { clock: tree[6] }),
          };
    return { owner: ownerOf(tree), kind: kindOf(tree[7]), left };
  }
  const base = stagingBase(target);
  if (!name.startsWith(base)) return undefined;
  const rest = name.slice(base.length);
  const match = OWNED.exec(rest);
  if (match !== null) return { owner: ownerOf(match), kind: kindOf(match[4]) };
  const unowned = UNOWNED.exec(rest);
  return unowned === null ? undefined : { owner: undefined, kind: kindOf(unowned[1]) };
}
