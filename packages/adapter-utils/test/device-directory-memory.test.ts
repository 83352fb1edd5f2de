import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { runSandboxed } from "./attack-support.js";
import { cleanupAll, scratchDir } from "./sandbox-support.js";
import { SCOPE_MATRIX } from "./scope-matrix.js";

afterEach(cleanupAll);

type Scope = Omit<LocalProcessSandboxOptions, "workspaceDir">;

/**
 * bwrap's `--dev` makes `/dev` a tmpfs of its own, with `/dev/shm` a directory in it, and
 * its `--size` applies to `--tmpfs` alone: under `tmpfsSizeBytes` the program still wrote
 * what it liked into `/dev` and `/dev/shm`, host memory up to half of RAM, in every scope.
 * The program writes 3 MiB into each under a 1 MiB cap, then uses the devices a program needs.
 */
const FILL_DEV = `
  const fs = require("node:fs");
  const out = {};
  for (const dir of ["/dev/shm", "/dev"]) {
    try { fs.writeFileSync(dir + "/fill", Buffer.alloc(3 << 20)); out[dir] = "wrote"; }
    catch (error) { out[dir] = error.code; }
  }
  fs.writeFileSync("/dev/null", "x");
  fs.closeSync(fs.openSync("/dev/ptmx", "r+"));
  const zero = fs.openSync("/dev/zero", "r");
  out.devices = fs.readSync(zero, Buffer.alloc(16)) === 16 ? "read" : "short";
  console.log(JSON.stringify(out));`;

describe("the sandbox's own /dev under tmpfsSizeBytes", () => {
  it("holds no more than the cap in /dev/shm and no file in /dev itself, in every scope; devices still work", async () => {
    const ws = scratchDir();
    const seen: Record<string, unknown> = {};
    for (const [name, scope] of Object.entries(SCOPE_MATRIX)) {
      const capped = { ...scope, tmpfsSizeBytes: 1 << 20 } as Scope;
      seen[name] = JSON.parse(await runSandboxed(ws, capped, process.execPath, ["-e", FILL_DEV]));
    }
    const held = { "/dev/shm": "ENOSPC", "/dev": "EROFS", devices: "read" };
    expect(seen).toEqual(Object.fromEntries(Object.keys(SCOPE_MATRIX).map((name) => [name, held])));
  }, 120_000);

  it("is left as bwrap makes it without a cap, as upstream's argv", async () => {
    const ws = scratchDir();
    for (const [name, scope] of Object.entries(SCOPE_MATRIX)) {
      const seen = JSON.parse(await runSandboxed(ws, scope as Scope, process.execPath, ["-e", FILL_DEV]));
      expect(seen, name).toEqual({ "/dev/shm": "wrote", "/dev": "wrote", devices: "read" });
    }
  }, 120_000);
});
