import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { persistRunnerDiagnostic } from "../src/index.js";
import { tempDir } from "./helpers/temp-dir.js";
import { tracked } from "./helpers/tracked-children.js";

const WRITER = fileURLToPath(new URL("./fixtures/persist-loop.mjs", import.meta.url));
const COMPLETE = /^begin (\S+) (\d+)\nx{60000}\nend \1 \2\n$/;

function writer(dir: string, label: string, count: number): ChildProcess {
  return tracked(
    spawn(process.execPath, [WRITER, dir, label, String(count)], { stdio: ["ignore", "pipe", "pipe"] }),
  );
}

/** Resolves once the writer printed `line` (its stdout keeps flowing afterwards). */
function printed(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += String(chunk);
      if (seen.includes(`${line}\n`)) {
        child.stdout!.off("data", onData);
        child.stdout!.resume();
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", () => reject(new Error(`the writer exited before printing ${line}`)));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("persisting under crashes and concurrency", () => {
  it("a SIGKILL at any point of a write leaves the old diagnostic or a new complete one, never a part", async () => {
    const dir = await tempDir();
    const old = "the old diagnostic\n";
    await persistRunnerDiagnostic(dir, old);
    let replaced = 0;
    let leftovers = 0;
    const kills = 30;
    for (let round = 0; round < kills; round += 1) {
      const child = writer(dir, `r${round}`, 0);
      const exited = once(child, "exit");
      // Even rounds kill from the first write on; odd ones once a write has completed.
      // The delays spread the kills over the cycle: create, write, fsync, rename, directory fsync.
      await printed(child, round % 2 === 0 ? "started" : "wrote 0");
      await sleep(round % 7);
      child.kill("SIGKILL");
      const [, signal] = await exited;
      expect(signal).toBe("SIGKILL");
      const contents = await readFile(join(dir, "runnerd.stderr.log"), "utf8");
      if (contents !== old) {
        expect(contents).toMatch(COMPLETE);
        replaced += 1;
      }
      leftovers += (await readdir(dir)).filter((name) => name.endsWith(".tmp")).length;
      expect((await stat(join(dir, "runnerd.stderr.log"))).mode & 0o777).toBe(0o600);
    }
    // Every odd round replaced the old file; some kills landed between a temporary file's
    // creation and its rename (about half of them, measured).
    expect(replaced).toBeGreaterThanOrEqual(kills / 2);
    expect(leftovers).toBeGreaterThan(0);
    // The next writer sweeps what the killed ones left between create and rename.
    await persistRunnerDiagnostic(dir, "after the crashes\n");
    expect(await readdir(dir)).toEqual(["runnerd.stderr.log"]);
  }, 60_000);

  it("two processes persisting at once: every write succeeds, the file is one complete diagnostic", async () => {
    const dir = await tempDir();
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
