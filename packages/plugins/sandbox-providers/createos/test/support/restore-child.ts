// Started by sync-restore-claims.test.ts: a worker's part in putting a killed worker's tree back
// as `target`, as `act` names it. It prints one JSON line once done (or once in the sweep's
// window, where it stays until killed), then runs on until its stdin closes: a live worker.
import { once } from "node:events";
import { link, mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { makeStagingDir, promoteDirectory, writeHostFileAtomic } from "../../src/sync/host-files.js";
import { restoreWindow } from "../../src/sync/restore-window.js";
import { ownStagingOwner, stagingPrefix } from "../../src/sync/staging-name.js";

export type RestoreAct =
  | "sweep"
  | "sync-starts-after-claim"
  | "die-in-window"
  | "fail-promotion"
  | "promote-file-in-window";

const [act, target] = process.argv.slice(2) as [RestoreAct, string];

function report(facts: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(facts)}\n`);
}

/** How link(2) fares here, on a file of its own beside `target`: undefined if it links. */
async function linkRefusal(): Promise<string | undefined> {
  const probe = join(dirname(target), "link-probe");
  await writeFile(probe, "");
  const code = await link(probe, `${probe}-linked`).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error.code,
  );
  await rm(probe);
  await rm(`${probe}-linked`, { force: true });
  return code;
}

/** The next sync out to `target`: it sweeps, stages, then fails before its promotion. */
async function failedSyncOut(): Promise<void> {
  const staging = await makeStagingDir(target);
  await rm(staging, { recursive: true, force: true });
}

if (act === "sweep") {
  await failedSyncOut();
  report({ linkRefusal: await linkRefusal() });
} else if (act === "sync-starts-after-claim") {
  // Another sync to the target starts (its staging named for this worker's parent, which runs)
  // once the sweep claimed the tree: the sweep can no longer put it back now.
  const running = `${stagingPrefix(target, { ...ownStagingOwner(), pid: process.ppid })}started`;
  restoreWindow.afterClaim = async () => {
    restoreWindow.afterClaim = undefined;
    await mkdir(join(dirname(target), running));
  };
  await failedSyncOut();
  report({ running });
} else if (act === "die-in-window") {
  restoreWindow.beforePlace = () => {
    report({ inWindow: true });
    return new Promise<void>(() => undefined);
  };
  await failedSyncOut();
} else if (act === "fail-promotion") {
  // Its staging gone (as if removed under it): the promotion fails once it took the pending claims.
  const failure = await promoteDirectory(join(dirname(target), "no-staging"), target).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error.code,
  );
  report({ failure });
} else {
  restoreWindow.beforePlace = async () => {
    restoreWindow.beforePlace = undefined;
    await writeHostFileAtomic(target, Readable.from([Buffer.from("promoted\n")]), 0o644);
  };
  await failedSyncOut();
  report({ linkRefusal: await linkRefusal() });
}
process.stdin.resume();
await once(process.stdin, "end");
