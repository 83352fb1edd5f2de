/**
 * Putting a killed worker's tree back as its missing target, across real worker processes: a
 * live worker that cannot put it back now lets go of it for any other, a dead one's claim is
 * taken over, and on a file system without hard links a file is still put back, never over a
 * file promoted meanwhile.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { childForTest, tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { newTreePath, ownStagingOwner, stagingPrefix } from "../src/sync/staging-name.js";
import { sweepStaleStaging } from "../src/sync/stale-staging.js";
import { noHardLinksFilter } from "./support/no-hard-links.js";
import type { RestoreAct } from "./support/restore-child.js";

const CHILD = fileURLToPath(new URL("./support/restore-child.ts", import.meta.url));
/** Above any pid_max: a process that certainly does not run. */
const DEAD = 2147483646;

/** A worker doing `act` on `target`, and the line it reports; it runs on until its stdin closes. */
async function workerPart(
  act: RestoreAct,
  target: string,
  options: { noHardLinks?: boolean } = {},
): Promise<{ worker: ChildProcess; report: Record<string, unknown> }> {
  const command = [process.execPath, "--import", "tsx", CHILD, act, target];
  let filter: number | undefined;
  if (options.noHardLinks === true) {
    const file = join(dirname(target), "no-hard-links.bpf");
    await writeFile(file, noHardLinksFilter());
    filter = openSync(file, "r");
    await rm(file);
  }
  const worker = childForTest(() =>
    filter === undefined
      ? spawn(command[0]!, command.slice(1), { stdio: ["pipe", "pipe", "inherit"] })
      : spawn("bwrap", ["--dev-bind", "/", "/", "--die-with-parent", "--seccomp", "3", "--", ...command], {
          stdio: ["pipe", "pipe", "inherit", filter],
        }),
  );
  if (filter !== undefined) closeSync(filter);
  let out = "";
  for await (const chunk of worker.stdout!) {
    out += String(chunk);
    if (out.includes("\n")) break;
  }
  return { worker, report: JSON.parse(out) as Record<string, unknown> };
}

async function exited(worker: ChildProcess): Promise<void> {
  if (worker.exitCode === null && worker.signalCode === null) await once(worker, "exit");
}

function ownedBy(target: string, pid: number, suffix = ""): string {
  return join(
    dirname(target),
    `${stagingPrefix(target, { ...ownStagingOwner(), pid })}0123456789ab${suffix}`,
  );
}

/** What a worker killed between its two renames leaves: the user's tree only in its `.old`. */
async function deadWorkersOld(target: string): Promise<void> {
  await mkdir(ownedBy(target, DEAD, ".old"));
  await writeFile(join(ownedBy(target, DEAD, ".old"), "mine.txt"), "only copy\n");
}

describe("a tree a live worker could not put back", () => {
  it("is let go of, so another worker's sweep puts it back while that worker runs on", async () => {
    const host = tempDirForTest("createos-restore-claims-");
    const target = join(host, "target");
    await deadWorkersOld(target);
    const { worker, report } = await workerPart("sync-starts-after-claim", target);
    expect(await readdir(host)).toEqual(
      expect.arrayContaining([report.running, expect.stringMatching(/\.released$/)]),
    );

    // That other sync is gone; the worker that let go of the tree runs on.
    await rm(join(host, report.running as string), { recursive: true });
    await sweepStaleStaging(target);
    expect(worker.exitCode).toBeNull();
    expect(await readdir(host)).toEqual(["target"]);
    expect(await readFile(join(target, "mine.txt"), "utf8")).toBe("only copy\n");
  });

  it("is let go of when its promotion took the tree as a pending restore, then failed", async () => {
    const host = tempDirForTest("createos-restore-claims-");
    const target = join(host, "target");
    // A dead worker's claim: it was putting the tree back when it was killed.
    const claim = newTreePath(target, "restore").replace(`-p${process.pid}-`, `-p${DEAD}-`);
    await mkdir(claim);
    await writeFile(join(claim, "mine.txt"), "only copy\n");
    const { worker, report } = await workerPart("fail-promotion", target);
    expect(report).toEqual({ failure: "ENOENT" });

    await sweepStaleStaging(target);
    expect(worker.exitCode).toBeNull();
    expect(await readdir(host)).toEqual(["target"]);
    expect(await readFile(join(target, "mine.txt"), "utf8")).toBe("only copy\n");
  });
});

describe("a tree a worker claimed, then was killed before it put it back", () => {
  it("is put back by the next worker's sweep", async () => {
    const host = tempDirForTest("createos-restore-claims-");
    const target = join(host, "target");
    await deadWorkersOld(target);
    const { worker, report } = await workerPart("die-in-window", target);
    expect(report).toEqual({ inWindow: true });
    worker.kill("SIGKILL");
    await exited(worker);
    expect(await readdir(host)).toEqual([expect.stringMatching(/\.restore$/)]);

    await sweepStaleStaging(target);
    expect(await readdir(host)).toEqual(["target"]);
    expect(await readFile(join(target, "mine.txt"), "utf8")).toBe("only copy\n");
  });
});

describe("a file put back where the file system has no hard links", () => {
  /** A directory synced out over what was a file: the replaced file is the `.old`. */
  async function deadWorkersOldFile(host: string): Promise<string> {
    const target = join(host, "target");
    await writeFile(ownedBy(target, DEAD, ".old"), "older file\n");
    return target;
  }

  it("is put back all the same", async () => {
    const host = tempDirForTest("createos-restore-claims-");
    const target = await deadWorkersOldFile(host);
    const { report } = await workerPart("sweep", target, { noHardLinks: true });
    expect(report).toEqual({ linkRefusal: "EPERM" });
    expect(await readdir(host)).toEqual(["target"]);
    expect(await readFile(target, "utf8")).toBe("older file\n");
  });

  it("never replaces a file this build promoted meanwhile", async () => {
    const host = tempDirForTest("createos-restore-claims-");
    const target = await deadWorkersOldFile(host);
    const { report } = await workerPart("promote-file-in-window", target, { noHardLinks: true });
    expect(report).toEqual({ linkRefusal: "EPERM" });
    expect(await readFile(target, "utf8")).toBe("promoted\n");
    expect(await readdir(host)).toEqual(["target"]);
  });
});
