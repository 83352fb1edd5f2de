import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What a sync in's extract step is given, laid out in `dir`. */
export interface StagedSyncIn {
  /** The target, holding `old.txt` ("old"). */
  readonly target: string;
  /** The uploaded archive, holding `new.txt` ("new"). */
  readonly archive: string;
  /** Where the step extracts the archive before it replaces the target. */
  readonly staged: string;
  /** The step's arguments: archive, staged directory, target, and no single file. */
  readonly args: string[];
}

/** A target with an old file and an archive of a new one, as a sync in stages them. */
export function stagedSyncIn(dir: string): StagedSyncIn {
  const target = join(dir, "target");
  mkdirSync(target);
  writeFileSync(join(target, "old.txt"), "old");
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "new.txt"), "new");
  const archive = join(dir, "staged.tar");
  spawnSync("tar", ["-c", "-f", archive, "-C", join(dir, "src"), "."]);
  const staged = join(dir, "staged.d");
  return { target, archive, staged, args: [archive, staged, target, ""] };
}

/**
 * An environment whose PATH finds, ahead of the real `rm`, a script in `dir`/bin that runs
 * `whenLast` (sh, with `$last` the last argument) and then the real one: so a test steers what
 * one removal does (the test runs as root, where permissions would not stop a real `rm`).
 */
export function envWithRmHook(dir: string, whenLast: string): NodeJS.ProcessEnv {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "rm"), `#!/bin/sh\nfor a; do last=$a; done\n${whenLast}\nexec /bin/rm "$@"\n`);
  chmodSync(join(bin, "rm"), 0o755);
  return { ...process.env, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` };
}
