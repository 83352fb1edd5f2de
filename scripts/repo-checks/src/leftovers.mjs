// What a test run may not leave behind: a new entry in /tmp, or a live process it started.
// usage: node scripts/repo-checks/src/leftovers.mjs snapshot FILE   (before the run)
//        node scripts/repo-checks/src/leftovers.mjs check FILE      (after it; exits 1 and names each offender)
// The run's processes are told apart from the rest of the machine by PAPERCLIP_TEST_RUN, an
// environment marker scripts/test.sh sets and every child inherits (turbo passes it through);
// for a child started with an environment of its own, by the checkout's path in its argv; and
// for a sandbox the CreateOS emulator starts (a clean environment, argv outside the checkout),
// by the emulator root it works in: /var/tmp/createos-emulator-*, when the run created it.
// Such roots left in /var/tmp are leftovers too.
import { readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readProcStat } from "@paperclipai/internal";

const TMP = "/tmp";
// Caches that tools keep in /tmp on purpose and reuse on the next run: Node's module compile
// cache (npm enables it on Node 22+) and tsx's transform cache. Not the suite's leftovers.
const TOOL_CACHES = [/^node-compile-cache$/, /^tsx-\d+$/];
// The sandbox's per-user private socket root (adapter-utils, temp-dir/private-socket-roots.ts):
// a root every run of that user shares, kept on purpose like its twin in /dev/shm. The native
// bridge's probe tries /tmp's when a copy in /dev/shm's does not run. Only an empty one is not a
// leftover: a run's directory or copy left inside it is.
const SANDBOX_SOCKET_ROOT = /^paperclip-sandbox-sockets-\d+$/;
const VAR_TMP = "/var/tmp";
/** Directories our packages make in /var/tmp (the emulator's default root), and where a path names one. */
const RUN_ROOT = /^createos-emulator-/;
const RUN_ROOT_IN_PATH = /\/var\/tmp\/(createos-emulator-[^/\s]+)/g;
const GRACE_MS = 10_000;

/**
 * @typedef {{ pid: number, start: string, command: string, cwd: string, marked: boolean,
 *   zombie: boolean, tmpInUse: string[] }} ProcessEntry tmpInUse: the /tmp entries it works in or holds open
 */
/** @typedef {{ tmp: string[], runRoots: string[], processes: string[] }} Snapshot */

/** The emulator roots (names in /var/tmp) a process's argv or working directory names. */
function runRootsNamedBy(/** @type {ProcessEntry} */ entry) {
  return [...`${entry.command} ${entry.cwd}`.matchAll(RUN_ROOT_IN_PATH)].map((match) => match[1]);
}

/**
 * The pure verdict: what is new in /tmp and which new marked processes still live. A new /tmp
 * entry that a process outside the run works in or holds open belongs to someone else on a
 * shared machine (`foreign`), and is named but not held against the run.
 * @param {Snapshot} before
 * @param {{ tmp: string[], emptySocketRoots?: string[], runRoots: string[], processes: ProcessEntry[] }} after
 *   emptySocketRoots: the sandbox socket roots among `tmp` that hold nothing
 * @param {ReadonlySet<number>} exempt the checker and its ancestors
 */
export function findLeftovers(before, after, exempt) {
  const oldTmp = new Set(before.tmp);
  const oldRunRoots = new Set(before.runRoots);
  const oldProcesses = new Set(before.processes);
  const ours = (/** @type {ProcessEntry} */ entry) =>
    entry.marked || runRootsNamedBy(entry).some((name) => !oldRunRoots.has(name));
  /** @type {Map<string, number>} */
  const heldByOthers = new Map();
  for (const entry of after.processes) {
    if (!ours(entry)) for (const name of entry.tmpInUse) heldByOthers.set(name, entry.pid);
  }
  const emptySocketRoots = new Set(after.emptySocketRoots ?? []);
  const newTmp = after.tmp.filter(
    (name) =>
      !oldTmp.has(name) &&
      !TOOL_CACHES.some((cache) => cache.test(name)) &&
      !(SANDBOX_SOCKET_ROOT.test(name) && emptySocketRoots.has(name)),
  );
  return {
    tmp: newTmp.filter((name) => !heldByOthers.has(name)),
    runRoots: after.runRoots.filter((name) => !oldRunRoots.has(name)),
    foreign: newTmp.flatMap((name) => {
      const pid = heldByOthers.get(name);
      return pid === undefined ? [] : [{ name, pid }];
    }),
    processes: after.processes.filter(
      (entry) => ours(entry) && !entry.zombie && !exempt.has(entry.pid) && !oldProcesses.has(identity(entry)),
    ),
  };
}

/** @param {string[]} tmp names in /tmp @returns {string[]} the sandbox socket roots among them that hold nothing */
function emptySocketRootsIn(tmp) {
  return tmp.filter((name) => {
    if (!SANDBOX_SOCKET_ROOT.test(name)) return false;
    try {
      return readdirSync(path.join(TMP, name)).length === 0;
    } catch {
      return false;
    }
  });
}

/** @returns {string[]} the emulator roots in /var/tmp now */
function listRunRoots() {
  try {
    return readdirSync(VAR_TMP).filter((name) => RUN_ROOT.test(name));
  } catch {
    return [];
  }
}

/** @param {Pick<ProcessEntry, "pid" | "start">} entry */
const identity = (entry) => `${entry.pid}@${entry.start}`;

/**
 * @param {string} marker the run's PAPERCLIP_TEST_RUN value; "" lists without telling whose
 * @param {string} [checkout] the repository root: a process whose argv names it is the run's too
 * @returns {ProcessEntry[]}
 */
export function listProcesses(marker, checkout) {
  const entries = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readProcStat(Number(name));
      if (!stat) continue;
      const environ = marker ? readFileSync(`/proc/${name}/environ`, "utf8").split("\0") : [];
      const command = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      entries.push({
        pid: Number(name),
        start: stat.startTime,
        command,
        cwd: workingDirectory(name),
        marked:
          environ.includes(`PAPERCLIP_TEST_RUN=${marker}`) ||
          (checkout !== undefined && command.includes(checkout)),
        zombie: stat.zombie,
        tmpInUse: marker ? tmpEntriesInUse(name) : [],
      });
    } catch {
      // The process ended while we read it, or is not ours to read: neither is a leftover of ours.
    }
  }
  return entries;
}

/** @param {string} pid @returns {string} its working directory, "" when not ours to read */
function workingDirectory(pid) {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return "";
  }
}

/** @param {string} pid @returns {string[]} names of the /tmp entries below its cwd or open files */
function tmpEntriesInUse(pid) {
  const names = new Set();
  const links = [`/proc/${pid}/cwd`];
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) links.push(`/proc/${pid}/fd/${fd}`);
  } catch {
    // Not ours to read: its cwd may still be.
  }
  for (const link of links) {
    try {
      const target = readlinkSync(link);
      if (target.startsWith(`${TMP}/`)) names.add(target.slice(TMP.length + 1).split("/")[0]);
    } catch {
      // Closed while we looked.
    }
  }
  return [...names];
}

/** @returns {Set<number>} */
function selfAndAncestors() {
  const chain = new Set();
  let pid = process.pid;
  while (pid > 1 && !chain.has(pid)) {
    chain.add(pid);
    pid = readProcStat(pid)?.ppid ?? 0;
  }
  return chain;
}

/** @param {string} name */
function describeTmpEntry(name) {
  try {
    const stat = statSync(path.join(TMP, name));
    return `${path.join(TMP, name)} (${stat.isDirectory() ? "directory" : "file"}, uid ${stat.uid}, modified ${stat.mtime.toISOString()})`;
  } catch {
    return path.join(TMP, name);
  }
}

async function main() {
  const [mode, file] = process.argv.slice(2);
  const marker = process.env.PAPERCLIP_TEST_RUN ?? "";
  const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
  if (!file || (mode !== "snapshot" && mode !== "check")) {
    console.error("usage: leftovers.mjs snapshot|check FILE");
    process.exit(2);
  }
  if (mode === "snapshot") {
    /** @type {Snapshot} */
    const snapshot = {
      tmp: readdirSync(TMP),
      runRoots: listRunRoots(),
      processes: listProcesses("").map(identity),
    };
    writeFileSync(file, JSON.stringify(snapshot));
    return;
  }
  /** @type {Snapshot} */
  const before = JSON.parse(readFileSync(file, "utf8"));
  const exempt = selfAndAncestors();
  // Teardown is asynchronous: a process on its way out, and what it removes as it exits, get a moment.
  const deadline = Date.now() + GRACE_MS;
  const look = () => {
    const tmp = readdirSync(TMP);
    return findLeftovers(
      before,
      {
        tmp,
        emptySocketRoots: emptySocketRootsIn(tmp),
        runRoots: listRunRoots(),
        processes: listProcesses(marker, checkout),
      },
      exempt,
    );
  };
  const count = (/** @type {ReturnType<typeof look>} */ found) =>
    found.processes.length + found.tmp.length + found.runRoots.length;
  let leftovers = look();
  while (count(leftovers) > 0 && Date.now() < deadline) {
    await sleep(250);
    leftovers = look();
  }
  for (const { name, pid } of leftovers.foreign) {
    console.log(
      `  not counted: ${path.join(TMP, name)} is in use by pid ${pid}, which is not part of this run`,
    );
  }
  for (const entry of leftovers.processes) console.log(`  left running: pid ${entry.pid}: ${entry.command}`);
  for (const name of leftovers.tmp) console.log(`  left in /tmp: ${describeTmpEntry(name)}`);
  for (const name of leftovers.runRoots) console.log(`  left in /var/tmp: ${path.join(VAR_TMP, name)}`);
  if (count(leftovers) > 0) {
    console.log(
      `error: the run left ${leftovers.processes.length} processes, ${leftovers.tmp.length} /tmp entries and ${leftovers.runRoots.length} emulator roots behind`,
    );
    process.exit(1);
  }
  console.log(
    "  nothing left behind: no new /tmp entry or emulator root, no process of this run still running",
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
