import { constants } from "node:fs";
import { open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { RunnerError } from "@paperclipai/errors";
import { readProcessStartTime } from "../harness/process-identity.js";
import { errnoCode, wrapOsError } from "../private-fs/os-error.js";

export const LOCK_FILE_NAME = "runner.lock";

export interface StateLock {
  release(): Promise<void>;
}

/**
 * One daemon per state directory: two live daemons on one journal would each run
 * the other's commands. The lock names its holder by pid and start time, so a lock
 * left by a SIGKILLed daemon (or a reused pid) is recognised as stale and taken over.
 */
export async function acquireStateLock(stateDir: string): Promise<StateLock> {
  const path = join(stateDir, LOCK_FILE_NAME);
  const self = { pid: process.pid, startTime: readProcessStartTime(process.pid) };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(
        path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
      try {
        await handle.writeFile(JSON.stringify(self));
        await handle.sync();
      } finally {
        await handle.close();
      }
      return { release: () => unlink(path).catch(() => undefined) };
    } catch (error) {
      if (errnoCode(error) !== "EEXIST") throw wrapOsError("ERR_RUNNER_STATE_LOCK_FAILED", error);
    }
    const holder = await readHolder(path);
    if (holder !== null && readProcessStartTime(holder.pid) === holder.startTime) {
      throw new RunnerError(
        "ERR_RUNNER_STATE_LOCKED",
        `durable state is in use by another runner process (pid ${holder.pid})`,
        { details: { pid: holder.pid } },
      );
    }
    await unlink(path).catch(() => undefined);
  }
  throw new RunnerError(
    "ERR_RUNNER_STATE_LOCKED",
    "durable state is in use by another runner process (pid unknown)",
    {
      details: { pid: null },
    },
  );
}

async function readHolder(path: string): Promise<{ pid: number; startTime: string | null } | null> {
  try {
    const value = JSON.parse(
      await readFile(path, { encoding: "utf8", flag: constants.O_RDONLY | constants.O_NOFOLLOW }),
    );
    return typeof value?.pid === "number" ? { pid: value.pid, startTime: value.startTime ?? null } : null;
  } catch {
    return null;
  }
}
