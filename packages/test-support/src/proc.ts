import { readdirSync, readFileSync } from "node:fs";

/** What tests and scripts read of a process from `/proc/<pid>/stat`. */
export interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** The one-letter scheduler state (`S`, `R`, `T` when stopped, `Z`…). */
  readonly state: string;
  /** Clock ticks after boot at which the process started: with the pid, its identity. */
  readonly startTime: string;
}

/** Parses `/proc/<pid>/stat`; the command name may contain spaces and parentheses, so fields start after the last `)`. */
export function parseProcStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(")");
  const pid = Number.parseInt(text, 10);
  if (close < 0 || !Number.isSafeInteger(pid)) return undefined;
  const fields = text.slice(close + 2).split(" ");
  const [state, ppid, pgid] = fields;
  const startTime = fields[19];
  if (state === undefined || ppid === undefined || pgid === undefined || startTime === undefined)
    return undefined;
  return { pid, ppid: Number(ppid), pgid: Number(pgid), state, startTime };
}

/** One process's stat; undefined when it does not exist. */
export function readProcStat(pid: number): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** Whether the process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  const stat = readProcStat(pid);
  return stat !== undefined && stat.state !== "Z" && stat.state !== "X";
}

/** Every process on the host (those that exit while it reads are left out). */
export function readProcTable(): ProcStat[] {
  const table: ProcStat[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProcStat(Number(name));
    if (stat) table.push(stat);
  }
  return table;
}

/** The descriptors a process has open, by number (empty when it is gone). */
export function openDescriptors(pid: number = process.pid): number[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).map(Number);
  } catch {
    return [];
  }
}
