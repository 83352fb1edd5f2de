import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";

export interface ProcEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** The one-letter scheduler state (`S`, `R`, `T` when stopped, `Z`…). */
  readonly state: string;
  readonly zombie: boolean;
}

/** Parses `/proc/<pid>/stat`; the command name may contain spaces and parentheses, so fields start after the last `)`. */
export function parseProcStat(text: string): ProcEntry | undefined {
  const close = text.lastIndexOf(")");
  const pid = Number.parseInt(text, 10);
  if (close < 0 || !Number.isSafeInteger(pid)) return undefined;
  const fields = text.slice(close + 2).split(" ");
  const [state, ppid, pgid] = fields;
  if (state === undefined || ppid === undefined || pgid === undefined) return undefined;
  return { pid, ppid: Number(ppid), pgid: Number(pgid), state, zombie: state === "Z" || state === "X" };
}

/** One process's entry; undefined when it does not exist (or without `/proc`). */
export function readProcEntry(pid: number): ProcEntry | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** A snapshot of every process on the host; undefined without `/proc`. */
export function readProcTable(): ProcEntry[] | undefined {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const entries: ProcEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    // Undefined when the process exited between readdir and read.
    const entry = readProcEntry(Number(name));
    if (entry) entries.push(entry);
  }
  return entries;
}

/**
 * The live (non-zombie) members of a process tree: every process in the leader's group plus
 * every descendant of a member, so children that moved to their own group are included while
 * their parent chain is intact. Zombies are ignored: an orphan zombie may never be reaped
 * when PID 1 does not reap, yet it runs nothing. Without `/proc`, the group is all there is.
 */
export function listTree(pgid: number, table: ProcEntry[] | undefined = readProcTable()): number[] {
  if (!table) return groupAlive(pgid) ? [pgid] : [];
  const members = new Set<number>();
  for (const entry of table) if (entry.pgid === pgid) members.add(entry.pid);
  let grew = true;
  while (grew) {
    grew = false;
    for (const entry of table) {
      if (!members.has(entry.pid) && members.has(entry.ppid)) {
        members.add(entry.pid);
        grew = true;
      }
    }
  }
  const alive = new Set(table.filter((entry) => !entry.zombie).map((entry) => entry.pid));
  return [...members].filter((pid) => alive.has(pid));
}

// Without /proc (not Linux), only the process group itself can be observed.
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalTree(pgid: number, signal: NodeJS.Signals): void {
  for (const pid of [-pgid, ...listTree(pgid)]) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

async function waitTreeGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (listTree(pgid).length === 0) return true;
    if (performance.now() >= deadline) return false;
    await delay(20);
  }
}

/** Sends `signal` to every process of the tree (used to freeze and thaw a paused sandbox). */
export function signalProcessTree(pgid: number, signal: NodeJS.Signals): void {
  signalTree(pgid, signal);
}

/**
 * Terminates a tree: SIGTERM (with SIGCONT, so stopped members can act on it), up to
 * `graceMs` for it to exit, then SIGKILL until nothing is left. Resolves true once no member
 * is alive; false only if members survive SIGKILL for 5 s (uninterruptible sleep).
 */
export async function killProcessTree(pgid: number, graceMs: number): Promise<boolean> {
  if (listTree(pgid).length === 0) return true;
  signalTree(pgid, "SIGTERM");
  signalTree(pgid, "SIGCONT");
  if (await waitTreeGone(pgid, graceMs)) return true;
  const deadline = performance.now() + 5000;
  while (performance.now() < deadline) {
    signalTree(pgid, "SIGKILL");
    if (await waitTreeGone(pgid, 100)) return true;
  }
  return false;
}
