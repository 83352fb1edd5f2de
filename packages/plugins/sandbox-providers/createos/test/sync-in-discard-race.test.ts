import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DISCARD_SCRIPT, extractScript } from "../src/sync/staged-scripts.js";

// A sync in's extract step that its client abandoned may still run in CreateOS while the sync
// discards what it staged. Here the discard runs exactly when the step is about to remove the
// old target: an `rm` ahead of the real one on the step's PATH stops there until told to go
// (two FIFOs), so the interleaving is fixed. Whatever the order, the target is never lost.

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "createos-discard-race-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `script` with `sh` as the sandbox would, `rm` of `held` stopping until `go` is written. */
function heldExtract(held: string, args: string[]): { child: ChildProcess; ready: string; go: string } {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const ready = join(dir, "ready");
  const go = join(dir, "go");
  spawnSync("mkfifo", [ready, go]);
  writeFileSync(
    join(bin, "rm"),
    `#!/bin/sh\nfor a; do last=$a; done\nif [ "$last" = "${held}" ]; then echo >"${ready}"; read x <"${go}"; fi\nexec /bin/rm "$@"\n`,
  );
  chmodSync(join(bin, "rm"), 0o755);
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` };
  const child = spawn("/bin/sh", ["-c", extractScript(false), "sh", ...args], { env, stdio: "ignore" });
  return { child, ready, go };
}

describe("a sync in's discard racing its own extract step", () => {
  it("never loses the target when the discard runs as the step replaces it", async () => {
    const target = join(dir, "target");
    mkdirSync(target);
    writeFileSync(join(target, "old.txt"), "old");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "new.txt"), "new");
    const archive = join(dir, "staged.tar");
    spawnSync("tar", ["-c", "-f", archive, "-C", join(dir, "src"), "."]);
    const staged = join(dir, "staged.d");

    const { child, ready, go } = heldExtract(target, [archive, staged, target, ""]);
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
