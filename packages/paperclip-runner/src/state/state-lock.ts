import { createHash, randomUUID } from "node:crypto";
import { closeSync, constants, linkSync, openSync, unlinkSync, writeFileSync } from "node:fs";
import { open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { RunnerError } from "@paperclipai/errors";
import { readProcessStartTime } from "../harness/process-identity.js";
import { errnoCode, wrapOsError } from "../private-fs/os-error.js";
import { syncToDisk } from "../private-fs/sync-to-disk.js";

export const LOCK_FILE_NAME = "runner.lock";
/** Claims to break one stale lock generation: `runner.lock.break.<token>.<level>`. */
const BREAK_LEVELS = 8;

export interface StateLock {
  release(): Promise<void>;
}

/** Who holds a lock: a process (pid and kernel start time, so a reused pid is not mistaken for it) and this lock's own token. */
interface LockHolder {
  readonly pid: number;
  readonly startTime: string | null;
  readonly token: string;
}

/**
 * One daemon per state directory: two live daemons on one journal would each run
 * the other's commands.
 *
 * - Never visible half-written: the holder is written to a private temporary file,
 *   then `link`ed to `runner.lock` (atomic, fails if a lock exists).
 * - Broken only when its holder is provably gone (no process with that pid and
 *   start time). Breaking one stale generation is claimed with an exclusive file
 *   named after its token, and the claimant re-reads the lock before removing it,
 *   so two daemons breaking the same stale lock never remove a fresh one.
 * - Released only by its holder: `release()` removes the lock only while it still
 *   carries this holder's token.
 */
export async function acquireStateLock(stateDir: string): Promise<StateLock> {
  const path = join(stateDir, LOCK_FILE_NAME);
  const self: LockHolder = {
    pid: process.pid,
    startTime: readProcessStartTime(process.pid),
    token: randomUUID(),
  };
  for (let attempt = 0; attempt < 4; attempt += 1) {
    if (await tryLink(stateDir, path, self)) {
      return { release: () => releaseIfOurs(path, self.token) };
    }
    const holder = await readHolder(path);
    if (holder === null) continue; // removed meanwhile (released or broken): try again
    if (isAlive(holder)) throw locked(holder.pid);
    await breakStale(stateDir, path, holder);
  }
  throw locked(null);
}

async function tryLink(stateDir: string, path: string, self: LockHolder): Promise<boolean> {
  const temporary = join(stateDir, `${LOCK_FILE_NAME}.${self.pid}.${self.token}.tmp`);
  // Direct system calls but for the fsync (which waits for the disk in libuv's thread pool): each
  // `fs/promises` call is a thread-pool round trip, and a durable runner takes its lock before
  // its handshake, on the way to a session's first answer.
  try {
    const fd = openSync(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      writeFileSync(fd, JSON.stringify(self));
      await syncToDisk(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw wrapOsError("ERR_RUNNER_STATE_LOCK_FAILED", error);
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // Never created, or already gone.
    }
  }
}

/** Removes the lock of a dead holder, at most once per stale generation, never a lock that replaced it. */
async function breakStale(stateDir: string, path: string, stale: LockHolder): Promise<void> {
  const claims: string[] = [];
  try {
    for (let level = 0; level < BREAK_LEVELS; level += 1) {
      const claim = join(stateDir, `${LOCK_FILE_NAME}.break.${stale.token}.${level}`);
      const self = { pid: process.pid, startTime: readProcessStartTime(process.pid), token: stale.token };
      try {
        const handle = await open(
          claim,
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
          0o600,
        );
        await handle.writeFile(JSON.stringify(self)).finally(() => handle.close());
      } catch (error) {
        if (errnoCode(error) !== "EEXIST") throw wrapOsError("ERR_RUNNER_STATE_LOCK_FAILED", error);
        const claimant = await readHolder(claim);
        // A live claimant is breaking it now; one that died mid-break hands over to the next level.
        if (claimant === null || isAlive(claimant)) return;
        claims.push(claim);
        continue;
      }
      claims.push(claim);
      // Only claimants of this generation remove it, and no lock can be linked while it exists.
      const current = await readHolder(path);
      if (current !== null && current.token === stale.token) await unlink(path).catch(() => undefined);
      return;
    }
  } finally {
    for (const claim of claims) await unlink(claim).catch(() => undefined);
  }
}

async function releaseIfOurs(path: string, token: string): Promise<void> {
  const current = await readHolder(path);
  // Only breakers remove a lock that is not theirs, and only a dead holder's: while we live, it stays ours.
  if (current !== null && current.token === token) await unlink(path).catch(() => undefined);
}

function isAlive(holder: LockHolder): boolean {
  return holder.startTime !== null && readProcessStartTime(holder.pid) === holder.startTime;
}

function locked(pid: number | null): RunnerError {
  return new RunnerError(
    "ERR_RUNNER_STATE_LOCKED",
    `durable state is in use by another runner process (pid ${pid ?? "unknown"})`,
    { details: { pid } },
  );
}

async function readHolder(path: string): Promise<LockHolder | null> {
  try {
    const text = await readFile(path, { encoding: "utf8", flag: constants.O_RDONLY | constants.O_NOFOLLOW });
    const value = JSON.parse(text) as Partial<LockHolder> | null;
    if (typeof value?.pid !== "number") return null;
    return {
      pid: value.pid,
      startTime: typeof value.startTime === "string" ? value.startTime : null,
      // A lock written by an earlier release has no token: its content names its generation.
      token:
        typeof value.token === "string"
          ? value.token
          : `legacy-${createHash("sha256").update(text).digest("hex").slice(0, 32)}`,
    };
  } catch {
    return null;
  }
}
