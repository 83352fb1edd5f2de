import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { run } from "./npm.js";

// Not copied: git history (the copy gets a repository of its own, so the release's git tags
// land there), turbo's caches, test reports, and pnpm's package store, which the copy links
// to (its packages' node_modules link into it by relative paths).
const EXCLUDED = ["./.git", "./node_modules/.pnpm", ".turbo", ".vitest-report"];

/**
 * A copy of the work tree at `dest`, as it is now (uncommitted changes included), that a
 * release may modify: versions, changelogs, changesets and git tags change there only.
 */
export async function throwawayCopy(repoRoot: string, dest: string): Promise<void> {
  await mkdir(dest, { recursive: true });
  const excludes = EXCLUDED.map((pattern) => `--exclude=${pattern}`);
  await run("bash", [
    "-c",
    'set -o pipefail; src="$1" dest="$2"; shift 2; tar -C "$src" "$@" -cf - . | tar -C "$dest" -xf -',
    "copy",
    repoRoot,
    dest,
    ...excludes,
  ]);
  await symlink(path.join(repoRoot, "node_modules", ".pnpm"), path.join(dest, "node_modules", ".pnpm"));
  const git = (...args: string[]) =>
    run("git", ["-c", "user.name=release e2e", "-c", "user.email=release-e2e@localhost", ...args], {
      cwd: dest,
    });
  await git("init", "--quiet", "--initial-branch=main");
  await git("add", "--all");
  await git("commit", "--quiet", "--no-verify", "--message", "Work tree as the release e2e found it");
}
