import { readdirSync, readFileSync } from "node:fs";

/** What the packages read of a process from `/proc/<pid>/stat`. */
export interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** The one-letter scheduler state (`S`, `R`, `T` when stopped, `Z`…). */
  readonly state: string;
  /** Exited but not reaped (`Z`), or dead (`X`): it runs nothing. */
  readonly zombie: boolean;
  /** Clock ticks after boot at which the process started (field 22): with the pid, its identity, so a reused pid is not taken for it. */
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
  return {
    pid,
    ppid: Number(ppid),
    pgid: Number(pgid),
    state,
    zombie: state === "Z" || state === "X",
    startTime,
  };
}

/** One process's stat; undefined when it does not exist (or without `/proc`). */
export function readProcStat(pid: number): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** Every process on the host (those that exit while it reads are left out); undefined without `/proc`. */
export function readProcTable(): ProcStat[] | undefined {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const table: ProcStat[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProcStat(Number(name));
    if (stat) table.push(stat);
  }
  return table;
}
