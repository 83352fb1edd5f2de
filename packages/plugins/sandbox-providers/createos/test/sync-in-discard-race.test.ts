import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DISCARD_SCRIPT, extractScript } from "../src/sync/staged-scripts.js";
import { envWithRmHook, stagedSyncIn } from "./support/staged-sync-in.js";

// A sync in's extract step that its client abandoned may still run in CreateOS while the sync
// discards what it staged. Here the discard runs exactly when the step is about to remove the
// old target: an `rm` ahead of the real one on the step's PATH stops there until told to go
// (two FIFOs), so the interleaving is fixed. Whatever the order, the target is never lost.

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "createos-discard-race-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the extract step with `sh` as the sandbox would, `rm` of `held` stopping until `go` is written. */
function heldExtract(held: string, args: string[]): { child: ChildProcess; ready: string; go: string } {
  const ready = join(dir, "ready");
  const go = join(dir, "go");
  spawnSync("mkfifo", [ready, go]);
  const env = envWithRmHook(dir, `if [ "$last" = "${held}" ]; then echo >"${ready}"; read x <"${go}"; fi`);
  const child = spawn("/bin/sh", ["-c", extractScript(false), "sh", ...args], { env, stdio: "ignore" });
  return { child, ready, go };
}

describe("a sync in's discard racing its own extract step", () => {
  it("never loses the target when the discard runs as the step replaces it", async () => {
    const { target, archive, staged, args } = stagedSyncIn(dir);
    const { child, ready, go } = heldExtract(target, args);
    const exited = once(child, "exit");
    await readFile(ready);
    const discard = spawnSync("/bin/sh", ["-c", DISCARD_SCRIPT, "sh", archive, staged]);
    expect(discard.status).toBe(0);
    await writeFile(go, "\n");
    const [code] = await exited;

    expect(code).toBe(0);
    expect(readFileSync(join(target, "new.txt"), "utf8")).toBe("new");
  });
});
