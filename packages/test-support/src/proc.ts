import { readdirSync, readFileSync } from "node:fs";
import {
  type ProcStat,
  readProcStat,
  readProcTable as readProcTableOrUndefined,
} from "@paperclipai/internal";

export { type ProcStat, parseProcStat, readProcStat } from "@paperclipai/internal";

/** Every process on the host (those that exit while it reads are left out); the tests run on Linux, so no `/proc` reads as none. */
export function readProcTable(): ProcStat[] {
  return readProcTableOrUndefined() ?? [];
}

/** Whether the process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  const stat = readProcStat(pid);
  return stat !== undefined && !stat.zombie;
}

/** The descriptors a process has open, by number (empty when it is gone). */
export function openDescriptors(pid: number = process.pid): number[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).map(Number);
  } catch {
    return [];
  }
}

/** A process's command line, its arguments separated by NUL bytes; undefined when it is gone. */
export function readCommandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return undefined;
  }
}

/** The processes, this one left out, whose command line contains `marker` (a path, a script). */
export function processesWith(marker: string): number[] {
  return readProcTable()
    .map(({ pid }) => pid)
    .filter((pid) => pid !== process.pid && readCommandLine(pid)?.includes(marker));
}
