import { setTimeout as delay } from "node:timers/promises";
import { type ProcStat, readProcTable } from "@paperclipai/internal";

/**
 * The live (non-zombie) members of a process tree: every process in the leader's group plus
 * every descendant of a member, so children that moved to their own group are included while
 * their parent chain is intact. Zombies are ignored: an orphan zombie may never be reaped
 * when PID 1 does not reap, yet it runs nothing. Without `/proc`, the group is all there is.
 */
export function listTree(pgid: number, table: ProcStat[] | undefined = readProcTable()): number[] {
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

/**
 * True only when no process, zombies included, is left in the group: `kill(-pgid, 0)`
 * answers ESRCH. One syscall instead of a `/proc` scan (milliseconds on a busy host).
 * Members that left the group are not seen: a false answer means "scan to be sure".
 */
export function groupEmpty(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function signal(pids: Iterable<number>, signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** Sends `signal` to every process of the tree (used to freeze and thaw a paused sandbox). */
export function signalProcessTree(pgid: number, signalName: NodeJS.Signals): void {
  signal([-pgid, ...listTree(pgid)], signalName);
}

/**
 * The tree's members as they are found, remembered by identity (pid and start time): once a
 * parent dies, its child is reparented and no longer reachable from the group, so a member
 * seen once is signalled and waited for until it is gone, never forgotten.
 */
class TreeMembers {
  readonly #known = new Map<number, string>();

  constructor(readonly pgid: number) {}

  /** The remembered members still alive, after adding the tree's current ones. */
  alive(): number[] {
    const table = readProcTable();
    if (!table) return listTree(this.pgid, table);
    const byPid = new Map(table.map((entry) => [entry.pid, entry]));
    for (const pid of listTree(this.pgid, table)) {
      const entry = byPid.get(pid);
      if (entry) this.#known.set(pid, entry.startTime);
    }
    return [...this.#known].flatMap(([pid, startTime]) => {
      const entry = byPid.get(pid);
      return entry !== undefined && !entry.zombie && entry.startTime === startTime ? [pid] : [];
    });
  }

  signal(signalName: NodeJS.Signals): void {
    signal([-this.pgid, ...this.alive()], signalName);
  }

  async waitGone(timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (this.alive().length === 0) return true;
      if (performance.now() >= deadline) return false;
      await delay(20);
    }
  }
}

/**
 * Terminates a tree: SIGTERM (with SIGCONT, so stopped members can act on it), up to
 * `graceMs` for it to exit, then SIGKILL until nothing is left. Resolves true once no member
 * ever seen is alive; false only if members survive SIGKILL for 5 s (uninterruptible sleep).
 */
export async function killProcessTree(pgid: number, graceMs: number): Promise<boolean> {
  const members = new TreeMembers(pgid);
  if (members.alive().length === 0) return true;
  members.signal("SIGTERM");
  members.signal("SIGCONT");
  if (await members.waitGone(graceMs)) return true;
  const deadline = performance.now() + 5000;
  while (performance.now() < deadline) {
    members.signal("SIGKILL");
    if (await members.waitGone(100)) return true;
  }
  return false;
}
