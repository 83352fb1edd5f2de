import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseMountinfo } from "../mountinfo.js";

/** Default `maxProcesses`: processes and threads of one run (the native bridge takes a thread per connection). */
export const DEFAULT_MAX_PROCESSES = 4096;
// A killed process leaves the cgroup once it is gone: poll often, a bounded while. Right
// after bwrap's exit the sandbox's pid 1 is usually still tearing its namespaces down
// (well under a millisecond on a quiet host): the first rounds only yield to the event
// loop, where a timer would add a millisecond each.
const KILL_ROUNDS = 500;
const KILL_ROUND_MS = 1;
const YIELD_ROUNDS = 20;

function pause(round: number): Promise<unknown> {
  return round < YIELD_ROUNDS ? new Promise((resolve) => setImmediate(resolve)) : sleep(KILL_ROUND_MS);
}

/** One mounted hierarchy that can limit pids: cgroup v1's `pids`, or v2 with `pids` enabled below it. */
export interface PidsHierarchy {
  readonly version: 1 | 2;
  /** The directory new run cgroups are created in. */
  readonly parent: string;
}

/**
 * Where this process could create run cgroups with a pids limit, from the text of
 * `/proc/self/mountinfo` and `/proc/self/cgroup` (pure; `findPidsHierarchy` reads them).
 * v1: the `pids` hierarchy at this process's own cgroup. v2: this process's own cgroup,
 * when it delegates `pids` to children (`cgroup.subtree_control`, checked by the caller).
 */
export function pidsHierarchyCandidates(mountinfo: string, cgroups: string): PidsHierarchy[] {
  const own = new Map<string, string>();
  for (const line of cgroups.split("\n")) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (match) own.set(match[1]!, match[2]!);
  }
  const found: PidsHierarchy[] = [];
  for (const { mountPoint, fsType, superOptions } of parseMountinfo(mountinfo)) {
    if (fsType === "cgroup" && superOptions.includes("pids")) {
      const ownPath = [...own.entries()].find(([controllers]) =>
        controllers.split(",").includes("pids"),
      )?.[1];
      if (ownPath !== undefined) found.push({ version: 1, parent: path.join(mountPoint, ownPath) });
    } else if (fsType === "cgroup2" && own.has("")) {
      found.push({ version: 2, parent: path.join(mountPoint, own.get("")!) });
    }
  }
  return found;
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

const RUN_CGROUP_PREFIX = "paperclip-sandbox-";

/**
 * A run cgroup's name: the owner's pid (for the sweep), then a token of this copy of the
 * module, then a counter (pure). The token keeps two copies of the package loaded by one
 * process (its ESM and CJS builds, or two versions) from making the same name: with the pid
 * and counter alone, one copy's `mkdir` failed on the other's cgroup (its run went without a
 * pids limit), and one copy's cleanup could kill the other's run in a cgroup that reused
 * the name of one it had just removed.
 */
export function runCgroupName(pid: number, token: string, counter: number): string {
  return `${RUN_CGROUP_PREFIX}${pid}-${token}-${counter}`;
}

/** The pid of the process that made a run cgroup, from its name (this version's or an earlier one's), else `null` (pure). */
export function runCgroupOwner(name: string): number | null {
  const match = /^paperclip-sandbox-(\d+)-(?:[0-9a-f]+-)?\d+$/.exec(name);
  const owner = Number(match?.[1]);
  return owner > 0 ? owner : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes run cgroups left by host processes that died before their cleanup. Only empty
 * ones go: the kernel refuses to remove a cgroup that still holds a process.
 */
function sweepLeftCgroups(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = runCgroupOwner(name);
    if (owner === null || owner === process.pid || isAlive(owner)) continue;
    try {
      rmdirSync(path.join(parent, name));
    } catch {}
  }
}

let hierarchy: PidsHierarchy | null | undefined;

/** The first usable pids hierarchy of this process, looked up once. */
export function findPidsHierarchy(): PidsHierarchy | null {
  if (hierarchy !== undefined) return hierarchy;
  hierarchy = null;
  for (const candidate of pidsHierarchyCandidates(
    readText("/proc/self/mountinfo"),
    readText("/proc/self/cgroup"),
  )) {
    if (
      candidate.version === 2 &&
      !readText(path.join(candidate.parent, "cgroup.subtree_control")).includes("pids")
    )
      continue;
    hierarchy = candidate;
    sweepLeftCgroups(candidate.parent);
    break;
  }
  return hierarchy;
}

let counter = 0;
const instanceToken = randomBytes(4).toString("hex");

/** A cgroup of one run: every process of the sandbox is born in it (the launcher joins it first). */
export interface RunCgroup {
  readonly procsFile: string;
  /** Sets `pids.max`; `false` when the cgroup no longer takes it. */
  limit(maxProcesses: number): boolean;
  /** SIGKILLs every process in it, until none is left (bounded rounds). */
  kill(): Promise<void>;
  /** Kills what is left, then removes the cgroup. */
  remove(): Promise<void>;
}

function members(dir: string): number[] {
  return readText(path.join(dir, "cgroup.procs"))
    .split("\n")
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

function writeLimit(dir: string, maxProcesses: number): boolean {
  try {
    writeFileSync(path.join(dir, "pids.max"), String(maxProcesses));
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates a run cgroup with `pids.max` = `maxProcesses`, or `null` when this process
 * cannot (no pids hierarchy, not writable: a non-root runner without delegation).
 */
export function createRunCgroup(maxProcesses: number): RunCgroup | null {
  const found = findPidsHierarchy();
  if (!found) return null;
  counter += 1;
  const dir = path.join(found.parent, runCgroupName(process.pid, instanceToken, counter));
  try {
    mkdirSync(dir);
  } catch {
    return null;
  }
  if (!writeLimit(dir, maxProcesses)) {
    try {
      rmdirSync(dir);
    } catch {}
    return null;
  }
  const kill = async () => {
    if (found.version === 2 && existsSync(path.join(dir, "cgroup.kill"))) {
      try {
        writeFileSync(path.join(dir, "cgroup.kill"), "1");
      } catch {}
    }
    for (let round = 0; round < KILL_ROUNDS; round++) {
      const pids = members(dir);
      if (pids.length === 0) return;
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {}
      }
      await pause(round);
    }
  };
  return {
    procsFile: path.join(dir, "cgroup.procs"),
    limit: (limit) => writeLimit(dir, limit),
    kill,
    async remove() {
      await kill();
      for (let round = 0; round < KILL_ROUNDS; round++) {
        try {
          rmdirSync(dir);
          return;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
          await pause(round);
        }
      }
    },
  };
}
