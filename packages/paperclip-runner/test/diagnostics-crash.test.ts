import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { childForTest, tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { persistRunnerDiagnostic } from "../src/diagnostics/index.js";
import { temporaryName } from "../src/private-fs/temporary-name.js";
import {
  PERSIST_PAUSE_PRELOAD,
  PERSIST_PHASES,
  type PersistPhase,
  pausedAt,
} from "./helpers/persist-pause.js";

const WRITER = fileURLToPath(new URL("./fixtures/persist-loop.mjs", import.meta.url));
const COMPLETE = /^begin (\S+) (\d+)\nx{60000}\nend \1 \2\n$/;
const FILE = "runnerd.stderr.log";

/** A persist-loop.mjs child; with `pauseAt`, it stops itself at that phase of its first write. */
function writer(dir: string, label: string, count: number, pauseAt?: PersistPhase): ChildProcess {
  const preload = pauseAt ? ["--import", PERSIST_PAUSE_PRELOAD] : [];
  const env = pauseAt ? { ...process.env, PERSIST_PAUSE_AT: pauseAt, PERSIST_PAUSE_FILE: FILE } : process.env;
  return childForTest(() =>
    spawn(process.execPath, [...preload, WRITER, dir, label, String(count)], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

/** What persist-loop.mjs writes first under `label`. */
const firstWrite = (label: string): string => `begin ${label} 0\n${"x".repeat(60_000)}\nend ${label} 0\n`;

/**
 * What a crash at each phase leaves: the target's contents, and the temporary
 * file's (`null`: none left). The recipe's promise is that the target is never a part.
 */
const LEFT_AT: Record<
  PersistPhase,
  (old: string, next: string) => { target: string; temporary: string | null }
> = {
  created: (old) => ({ target: old, temporary: "" }),
  partial: (old, next) => ({ target: old, temporary: next.slice(0, Math.floor(next.length / 2)) }),
  synced: (old, next) => ({ target: old, temporary: next }),
  renamed: (_old, next) => ({ target: next, temporary: null }),
};

describe("persisting under crashes and concurrency", () => {
  it.each(PERSIST_PHASES)(
    "a SIGKILL at %s leaves the old diagnostic or the new complete one, never a part; the next writer sweeps",
    async (phase) => {
      const dir = tempDirForTest();
      const old = "the old diagnostic\n";
      await persistRunnerDiagnostic(dir, old);
      const child = writer(dir, phase, 1, phase);
      child.stdout!.resume();
      const exited = once(child, "exit");
      const temporary = await pausedAt(child, phase);
      expect(temporary).toBe(temporaryName(FILE, child.pid!, 0));
      child.kill("SIGKILL");
      expect((await exited)[1]).toBe("SIGKILL");

      const left = LEFT_AT[phase](old, firstWrite(phase));
      expect(await readFile(join(dir, FILE), "utf8")).toBe(left.target);
      expect((await stat(join(dir, FILE))).mode & 0o777).toBe(0o600);
      if (left.temporary === null) {
        expect(await readdir(dir)).toEqual([FILE]);
      } else {
        expect((await readdir(dir)).sort()).toEqual([temporary, FILE]);
        expect(await readFile(join(dir, temporary), "utf8")).toBe(left.temporary);
        expect((await stat(join(dir, temporary))).mode & 0o777).toBe(0o600);
      }
      // The next writer sweeps the temporary file of the dead one and replaces the target.
      await persistRunnerDiagnostic(dir, "after the crash\n");
      expect(await readdir(dir)).toEqual([FILE]);
      expect(await readFile(join(dir, FILE), "utf8")).toBe("after the crash\n");
    },
    60_000,
  );

  it("two processes persisting at once: every write succeeds, the file is one complete diagnostic", async () => {
    const dir = tempDirForTest();
    const children = [writer(dir, "first", 40), writer(dir, "second", 40)];
    const codes = await Promise.all(
      children.map(async (child) => {
        const stderr: Buffer[] = [];
        child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk));
        child.stdout!.resume();
        const [code] = await once(child, "exit");
        return { code, stderr: Buffer.concat(stderr).toString("utf8") };
      }),
    );
    expect(codes).toEqual([
      { code: 0, stderr: "" },
      { code: 0, stderr: "" },
    ]);
    const contents = await readFile(join(dir, "runnerd.stderr.log"), "utf8");
    expect(contents).toMatch(COMPLETE);
    expect(contents).toMatch(/^begin (first|second) 39\n/);
    expect(await readdir(dir)).toEqual(["runnerd.stderr.log"]);
  }, 60_000);
});
