import { readdir } from "node:fs/promises";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { builtEntry, cleanupAll, exec } from "./sandbox-support.js";

afterEach(cleanupAll);

/** Empty files the program leaves in its private /tmp: a couple of seconds of its time. */
const FILES = 150_000;

/**
 * The host process's growth while it removes them. The listing itself (the names) takes a
 * few tens of MiB; one pending removal per entry, as the walk made before, took about 5 KiB
 * each (750 MiB here, 5 GiB for the million files a program leaves in twelve seconds).
 */
const MAX_GROWTH_MIB = 200;

/** Peak resident memory of this process, in MiB (`VmHWM`). */
const PEAK_MIB = `Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]) / 1024`;

describe("cleanup of a private /tmp holding many entries", () => {
  it("removes them within bounded host memory", async () => {
    const workspace = tempDirForTest("pc-many-entries-ws-", { base: "/var/tmp" });
    // A tmpfs, as the run directory's default place (/dev/shm) is.
    const base = tempDirForTest("pc-many-entries-", { base: "/dev/shm" });
    const plant = `const fs = require("node:fs"); for (let i = 0; i < ${FILES}; i++) fs.closeSync(fs.openSync("/tmp/" + i.toString(36), "w")); console.log("planted");`;
    const script = `
        import { readFileSync } from "node:fs";
        const { runChildProcess } = await import(${JSON.stringify(builtEntry)});
        const before = ${PEAK_MIB};
        const result = await runChildProcess("many-entries", ${JSON.stringify(process.execPath)}, ["-e", ${JSON.stringify(plant)}], {
          cwd: ${JSON.stringify(workspace)}, env: {}, timeoutSec: 120, graceSec: 1, onLog: async () => {},
          localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ${JSON.stringify(workspace)}, networkScope: "deny", proxySocketDirCandidates: [${JSON.stringify(base)}] },
        });
        console.log(JSON.stringify({ exitCode: result.exitCode, stdout: result.stdout.trim(), grownMiB: ${PEAK_MIB} - before }));`;
    const result = await exec(process.execPath, ["--input-type=module", "-e", script], {
      PATH: process.env.PATH,
    });
    expect(result.stderr).toBe("");
    const outcome = JSON.parse(result.stdout) as { exitCode: number; stdout: string; grownMiB: number };
    expect(outcome).toMatchObject({ exitCode: 0, stdout: "planted" });
    expect(await readdir(base)).toEqual([]);
    expect(outcome.grownMiB).toBeLessThan(MAX_GROWTH_MIB);
  }, 240_000);
});
