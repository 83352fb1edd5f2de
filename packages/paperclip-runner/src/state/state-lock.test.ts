import { spawnSync } from "node:child_process";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { readProcessStartTime } from "../harness/process-identity.js";
import { acquireStateLock, LOCK_FILE_NAME } from "./state-lock.js";

const stateDir = (): string => tempDirForTest("runner-lock-");

/** The pid of a process that has exited (and been reaped): a holder that is provably gone. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return Number(child.stdout);
}

async function settle(attempts: Promise<unknown>[]): Promise<{ won: number; locked: number }> {
  const outcomes = await Promise.allSettled(attempts);
  return {
    won: outcomes.filter((outcome) => outcome.status === "fulfilled").length,
    locked: outcomes.filter(
      (outcome) =>
        outcome.status === "rejected" && PaperclipError.is(outcome.reason, "ERR_RUNNER_STATE_LOCKED"),
    ).length,
  };
}

describe("the state lock", () => {
  it("is complete whenever it is visible, names its live holder, and is released only by it", async () => {
    const dir = stateDir();
    const lock = await acquireStateLock(dir);
    const holder = JSON.parse(await readFile(join(dir, LOCK_FILE_NAME), "utf8"));
    expect(holder).toMatchObject({ pid: process.pid, startTime: readProcessStartTime(process.pid) });
    const error = await acquireStateLock(dir).catch((caught: unknown) => caught);
    expect(PaperclipError.is(error, "ERR_RUNNER_STATE_LOCKED")).toBe(true);
    expect((error as PaperclipError).message).toBe(
      `durable state is in use by another runner process (pid ${process.pid})`,
    );
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it("does not remove a lock that is no longer its own", async () => {
    const dir = stateDir();
    const first = await acquireStateLock(dir);
    // Someone else's lock now stands where ours was (as if ours had been broken and re-taken).
    const other = JSON.stringify({
      pid: process.pid,
      startTime: readProcessStartTime(process.pid),
      token: "other",
    });
    await rm(join(dir, LOCK_FILE_NAME));
    await writeFile(join(dir, LOCK_FILE_NAME), other);
    await first.release();
    expect(await readFile(join(dir, LOCK_FILE_NAME), "utf8")).toBe(other);
  });

  it("breaks the lock of a holder that is provably gone (pid reused or exited), old format included", async () => {
    const dir = stateDir();
    for (const stale of [
      { pid: deadPid(), startTime: "1", token: "t" },
      { pid: process.pid, startTime: "not-my-start-time", token: "t2" },
      { pid: deadPid(), startTime: "1" },
    ]) {
      await writeFile(join(dir, LOCK_FILE_NAME), JSON.stringify(stale));
      const lock = await acquireStateLock(dir);
      expect(JSON.parse(await readFile(join(dir, LOCK_FILE_NAME), "utf8")).pid).toBe(process.pid);
      await lock.release();
    }
    expect(await readdir(dir)).toEqual([]);
    // Two Node processes started and reaped (deadPid): seconds on a loaded 2-core CI machine.
  }, 30_000);

  it("lets exactly one of several concurrent acquirers through, also while they break the same stale lock", async () => {
    const dir = stateDir();
    const gone = deadPid();
    for (let round = 0; round < 50; round += 1) {
      if (round % 2 === 0) {
        await writeFile(
          join(dir, LOCK_FILE_NAME),
          JSON.stringify({ pid: gone, startTime: "1", token: `s${round}` }),
        );
      }
      const attempts = [acquireStateLock(dir), acquireStateLock(dir), acquireStateLock(dir)];
      expect(await settle(attempts)).toEqual({ won: 1, locked: 2 });
      const winner = (await Promise.allSettled(attempts)).find((outcome) => outcome.status === "fulfilled");
      await (winner as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release();
      expect(await readdir(dir)).toEqual([]);
    }
  }, 60_000);
});
