import { execFile } from "node:child_process";
import { chmod, copyFile, mkdir } from "node:fs/promises";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { handMadeServer } from "./helpers/hand-made-prp-server.js";
import { HAND_MADE_TICKET, spawnHandMadeRunner } from "./helpers/hand-made-runner.js";
import { runBin } from "./helpers/run-bin.js";

// The server stages a remote runner as one file (PAPERCLIP_RUNNER_REMOTE_BINARY_PATH), copied into
// the sandbox with mode 0700 and executed directly. The bundle is that file: it starts with a
// shebang and loads nothing but Node's built-ins, so staged alone, in a directory with no
// node_modules anywhere above it, it is the whole runner.

const BUNDLE = fileURLToPath(new URL("../dist/runnerd-cli.cjs", import.meta.url));
const run = promisify(execFile);

/** The bundle copied alone to a fresh directory (its path holds a space), as the server stages it. */
async function stagedAlone(): Promise<{ file: string; env: NodeJS.ProcessEnv }> {
  const dir = join(tempDirForTest("lone-runner-"), "remote sandbox");
  await mkdir(dir);
  const file = join(dir, "paperclip-runnerd");
  await copyFile(BUNDLE, file);
  await chmod(file, 0o700);
  // The shebang finds `node` on the PATH, as in a sandbox image with Node installed.
  const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}` };
  return { file, env };
}

describe("the bundle staged alone, as the server stages a remote runner", { timeout: 30_000 }, () => {
  it("executed directly, prints the same build metadata as the bin", async () => {
    const { file, env } = await stagedAlone();
    const lone = await run(file, ["--build-metadata"], { env });
    const bin = await runBin(["--build-metadata"]);
    expect(lone.stderr).toBe("");
    expect(lone.stdout).toBe(bin.stdout);
    expect(JSON.parse(lone.stdout)).toMatchObject({ binaryContractVersion: 2 });
  });

  it("executed directly, dials the server and answers its commands", async () => {
    const { file, env } = await stagedAlone();
    const server = await handMadeServer();
    const runner = spawnHandMadeRunner({
      command: [file],
      endpoint: ["--connect-url", server.url],
      stateDir: join(dirname(file), "state"),
      env: { PATH: env.PATH ?? "" },
    });
    const conn = await Promise.race([
      server.nextConnection(),
      runner.closed.then((code) => {
        throw new Error(`the staged runner exited (${code}) before it dialled: ${runner.stderr()}`);
      }),
    ]);
    await conn.handshake(HAND_MADE_TICKET);
    conn.welcome();
    conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    expect(await conn.resultOf("prepare")).toMatchObject({ status: "completed" });
    conn.sendCommand({ commandId: "drain", controllerSeq: 2, type: "runner.drain" });
    expect(await conn.resultOf("drain")).toMatchObject({ status: "completed" });
    expect(runner.child.exitCode).toBeNull();
    expect(runner.stderr()).not.toMatch(/Cannot find|ERR_MODULE/);
  });
});
