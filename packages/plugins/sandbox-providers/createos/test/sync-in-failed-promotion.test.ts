import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extractScript } from "../src/sync/staged-scripts.js";
import { envWithRmHook, stagedSyncIn } from "./support/staged-sync-in.js";

// A promotion whose removal of the old target fails (something the sandbox user cannot remove:
// a read-only module cache, a mount point) must not leave the claimed new tree beside the
// target: the sync's discard no longer sees it under its staged name. The failing removal is an
// `rm` ahead of the real one on the step's PATH (the test runs as root, where permissions would
// not stop a real one).

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "createos-failed-promotion-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the extract step with `sh` as the sandbox would, an `rm` of `refused` failing. */
function extractRefusing(refused: string, args: string[]): number | null {
  const env = envWithRmHook(
    dir,
    `if [ "$last" = "${refused}" ]; then echo "rm: cannot remove: Device or resource busy" >&2; exit 1; fi`,
  );
  return spawnSync("/bin/sh", ["-c", extractScript(false), "sh", ...args], { env, stdio: "ignore" }).status;
}

describe("a sync in's promotion that cannot remove the old target", () => {
  it("fails, leaving the target as it was and no claimed tree beside it", () => {
    const { target, staged, args } = stagedSyncIn(dir);

    const code = extractRefusing(target, args);

    expect(code).not.toBe(0);
    expect(readFileSync(join(target, "old.txt"), "utf8")).toBe("old");
    expect(existsSync(`${staged}.promoting`)).toBe(false);
    expect(existsSync(staged)).toBe(false);
  });
});
