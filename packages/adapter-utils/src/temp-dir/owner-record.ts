import { readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

/** File in each per-run directory naming the process that owns it. */
export const OWNER_RECORD_NAME = "owner.json";

export interface OwnerRecord {
  readonly pid: number;
  /** Start time of the process in clock ticks since boot (`/proc/<pid>/stat` field 22), so a reused pid is not taken for the owner. */
  readonly startTicks: string | null;
}

export function processStartTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces and parentheses; fields after it are plain.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

const ownRecord = (): string =>
  `${JSON.stringify({ pid: process.pid, startTicks: processStartTicks(process.pid) } satisfies OwnerRecord)}\n`;
let cachedOwnRecord: string | undefined;

export function writeOwnerRecord(dir: string): void {
  cachedOwnRecord ??= ownRecord();
  writeFileSync(path.join(dir, OWNER_RECORD_NAME), cachedOwnRecord, { mode: 0o600 });
}

export async function readOwnerRecord(dir: string): Promise<OwnerRecord | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path.join(dir, OWNER_RECORD_NAME), "utf8"));
    if (!parsed || typeof parsed !== "object") return null;
    const { pid, startTicks } = parsed as { pid?: unknown; startTicks?: unknown };
    if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0) return null;
    return { pid, startTicks: typeof startTicks === "string" ? startTicks : null };
  } catch {
    return null;
  }
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
