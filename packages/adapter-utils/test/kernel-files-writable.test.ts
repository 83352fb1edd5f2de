import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll } from "./sandbox-support.js";
import { runInScopeMatrix, scopeMatrixWorkspace } from "./scope-matrix.js";

afterEach(cleanupAll);

/**
 * The program opens for writing every regular file and device below `/proc` (but the
 * processes' own directories), `/sys` and `/dev`, and prints those that open. Opening is
 * enough: a root program that can open `/proc/sysrq-trigger`, a `/proc/sys` or `/sys`
 * knob, or a disk can write to it; nothing is written.
 */
const PROGRAM = `
const fs = require("node:fs");
const path = require("node:path");
const { O_WRONLY, O_NONBLOCK, O_NOCTTY } = fs.constants;
const open = [];
function walk(dir, depth) {
  let entries;
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (/^\\/proc\\/(\\d+|self|thread-self)(\\/|$)/.test(file) || entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) { if (depth < 8) walk(file, depth + 1); continue; }
    if (!entry.isFile() && !entry.isCharacterDevice() && !entry.isBlockDevice()) continue;
    try { fs.closeSync(fs.openSync(file, O_WRONLY | O_NONBLOCK | O_NOCTTY)); open.push(file); } catch {}
  }
}
for (const root of ["/proc", "/sys", "/dev"]) walk(root, 0);
console.log(JSON.stringify(open));`;

/**
 * What a program may write there: its own `/dev` (bwrap's), a terminal of its own from its
 * own devpts, and pressure-stall triggers, which the kernel lets any process set on its
 * own descriptor (a trigger lives as long as that descriptor).
 */
const HARMLESS = /^\/dev\/(null|zero|full|random|urandom|pts\/ptmx)$|^\/proc\/pressure\/(cpu|io|memory|irq)$/;

describe("kernel files and devices", () => {
  it.each(["root", "nobody"] as const)(
    "none opens for writing to a program run as %s but its own /dev and pressure triggers, in every scope",
    async (runAs) => {
      const ws = await scopeMatrixWorkspace(runAs, "pc-kernel-files-");
      const result = await runInScopeMatrix(runAs, ws, PROGRAM);
      expect(result.stderr).toBe("");
      const opened = JSON.parse(result.stdout) as Record<string, string[] | string>;
      for (const [scope, files] of Object.entries(opened)) {
        expect(Array.isArray(files), `${scope}: ${String(files)}`).toBe(true);
        expect(
          (files as string[]).filter((file) => !HARMLESS.test(file)),
          scope,
        ).toEqual([]);
        // The scan did run: the sandbox's own /dev/null is there to open.
        expect(files, scope).toContain("/dev/null");
      }
    },
    120_000,
  );
});
