import { mkdirSync, writeFileSync } from "node:fs";
import { readdir, readFile, unlink } from "node:fs/promises";
import path from "node:path";
import { readProcStat } from "@paperclipai/internal";
import { privateSocketRootsInUse } from "./hidden-socket-roots.js";
import { OWNER_RECORD_NAME, OWNER_REGISTRY_NAME, ownerRecordLocations } from "./owner-record-location.js";
import { ownPrivateRoots, preparePrivateRoot } from "./prepare-private-root.js";

export { OWNER_RECORD_NAME } from "./owner-record-location.js";

export interface OwnerRecord {
  readonly pid: number;
  /** Start time of the process in clock ticks since boot (`/proc/<pid>/stat` field 22), so a reused pid is not taken for the owner. */
  readonly startTicks: string | null;
}

export function processStartTicks(pid: number): string | null {
  return readProcStat(pid)?.startTime ?? null;
}

const ownRecord = (): OwnerRecord => ({ pid: process.pid, startTicks: processStartTicks(process.pid) });
let cachedOwnRecord: string | undefined;

/** The text `writeOwnerRecord` writes for this process (a record of its own): one `/proc` read per process. */
export function ownRecordText(): string {
  cachedOwnRecord ??= `${JSON.stringify(ownRecord())}\n`;
  return cachedOwnRecord;
}

/** Registry directories this process has made ready: one mkdir per root and process, not per run. */
const readyRegistries = new Set<string>();
/** Where this process wrote each directory's record, so its removal is one unlink. */
const writtenAt = new Map<string, string>();

const ownerRoots = (): string[] => privateSocketRootsInUse();

function writeRecordAt(location: string, text: string): void {
  const registry = path.dirname(location);
  if (!readyRegistries.has(registry)) {
    preparePrivateRoot(path.dirname(registry));
    mkdirSync(registry, { recursive: true, mode: 0o700 });
    readyRegistries.add(registry);
  }
  try {
    writeFileSync(location, text, { mode: 0o600 });
  } catch (error) {
    // The registry was removed since (a reboot's fresh /dev/shm, a cleaner): ready it again, once.
    readyRegistries.delete(registry);
    throw error;
  }
}

/** Whether `dir` keeps its record inside itself (it lies in a private socket root). */
function isInsideOwnDirectory(dir: string, locations: readonly string[]): boolean {
  return locations.length === 1 && locations[0] === path.join(dir, OWNER_RECORD_NAME);
}

/**
 * One write into the directory its creator has just made inside a private root: no
 * registry to ready, and nothing to remember per directory (a run would otherwise add
 * one entry to `readyRegistries` for good). A directory gone already cannot be recorded.
 */
function writeInsideOwnDirectory(dir: string, location: string, text: string): boolean {
  try {
    writeFileSync(location, text, { mode: 0o600 });
  } catch {
    return false;
  }
  writtenAt.set(dir, location);
  return true;
}

/**
 * Records this process as the owner of `dir`, where no sandbox can write
 * (`ownerRecordLocations`): the first root that takes it. Returns `false` when no
 * private socket root is usable; such a directory is never swept (left behind
 * rather than removed on a word a sandbox could forge).
 */
export function writeOwnerRecord(dir: string, record: OwnerRecord | null = null): boolean {
  const text = record ? `${JSON.stringify(record)}\n` : ownRecordText();
  const locations = ownerRecordLocations(dir, ownerRoots());
  if (isInsideOwnDirectory(dir, locations)) return writeInsideOwnDirectory(dir, locations[0]!, text);
  // A registry record names its directory, so the registry alone can be swept.
  const registryText = `${JSON.stringify({ ...(JSON.parse(text) as OwnerRecord), dir })}\n`;
  for (const location of locations) {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        writeRecordAt(location, locations.length > 1 ? registryText : text);
        writtenAt.set(dir, location);
        return true;
      } catch {}
    }
  }
  return false;
}

function parseRecord(text: string): (OwnerRecord & { readonly dir: string | null }) | null {
  const parsed: unknown = JSON.parse(text);
  if (!parsed || typeof parsed !== "object") return null;
  const { pid, startTicks, dir } = parsed as { pid?: unknown; startTicks?: unknown; dir?: unknown };
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0) return null;
  return {
    pid,
    startTicks: typeof startTicks === "string" ? startTicks : null,
    dir: typeof dir === "string" && path.isAbsolute(dir) ? dir : null,
  };
}

export interface RegistryEntry {
  /** The record file in a root's registry. */
  readonly location: string;
  /** The per-run directory it names (its file name is that path's hash, checked here). */
  readonly dir: string;
  readonly owner: OwnerRecord;
}

/** The records in `root`'s registry whose file name matches the directory they name; none in a root not this uid's own. */
export async function readOwnerRegistry(root: string): Promise<RegistryEntry[]> {
  if ((await ownPrivateRoots([root])).length === 0) return [];
  const registry = path.join(root, OWNER_REGISTRY_NAME);
  let names: string[];
  try {
    names = await readdir(registry);
  } catch {
    return [];
  }
  const entries: RegistryEntry[] = [];
  for (const name of names) {
    const location = path.join(registry, name);
    try {
      const record = parseRecord(await readFile(location, "utf8"));
      if (!record?.dir || !ownerRecordLocations(record.dir, [root]).includes(location)) continue;
      entries.push({ location, dir: record.dir, owner: { pid: record.pid, startTicks: record.startTicks } });
    } catch {}
  }
  return entries;
}

/** The owner record of `dir` from a place no sandbox (nor another user) can write, or `null`. */
export async function readOwnerRecord(dir: string): Promise<OwnerRecord | null> {
  for (const location of ownerRecordLocations(dir, await ownPrivateRoots(ownerRoots()))) {
    try {
      const record = parseRecord(await readFile(location, "utf8"));
      if (record) return { pid: record.pid, startTicks: record.startTicks };
    } catch {}
  }
  return null;
}

/** Removes the registry record of `dir` (one inside `dir` goes with it). */
export async function removeOwnerRecord(dir: string): Promise<void> {
  const written = writtenAt.get(dir);
  writtenAt.delete(dir);
  const locations = written ? [written] : ownerRecordLocations(dir, ownerRoots());
  if (isInsideOwnDirectory(dir, locations)) return;
  // One unlink each (never a directory there): a record that is gone already is no error.
  await Promise.all(locations.map((location) => unlink(location).catch(() => {})));
}

/** `false` only when the owner is certainly gone: no such pid, or the pid now belongs to a younger process. */
export function isOwnerAlive(record: OwnerRecord): boolean {
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  if (record.startTicks === null) return true;
  const current = processStartTicks(record.pid);
  return current === null || current === record.startTicks;
}
