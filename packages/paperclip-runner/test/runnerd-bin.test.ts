import { spawn } from "node:child_process";
import { once } from "node:events";
import { chmod, chown, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { childForTest, tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { VERSION } from "../src/index.js";
import { BIN, runBin } from "./helpers/run-bin.js";
import { asNobody } from "./helpers/staged-bin.js";

const INJECT_FAULT = fileURLToPath(new URL("./fixtures/inject-fault.mjs", import.meta.url));
const SEED_MESSAGE = "runner diagnostics directory is accessible by group or other users";

async function diagnosticsDir(mode = 0o700): Promise<string> {
  const dir = join(tempDirForTest(), "diagnostics");
  await mkdir(dir);
  await chmod(dir, mode);
  return dir;
}

const diagnosticOf = (dir: string) => readFile(join(dir, "runnerd.stderr.log"), "utf8");

// Real processes: generous guards for a loaded 2-core CI, not a timing assertion.
describe("the paperclip-runnerd bin", { timeout: 30_000 }, () => {
  it("--build-metadata prints one JSON line and exits 0", async () => {
    const result = await runBin(["--build-metadata"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\n");
    expect(lines).toHaveLength(2);
    const metadata = JSON.parse(lines[0] as string);
    expect(metadata).toMatchObject({
      schema: "paperclip-runner/runnerd-build-metadata/v1",
      binaryName: "paperclip-runnerd",
      packageName: "@paperclipai/paperclip-runner",
      packageVersion: VERSION,
      prp: { name: "paperclip.runner" },
    });
  });

  it("is one ASCII file: V8 would hold the whole bundle as a two-byte string for one other character", async () => {
    const bundle = await readFile(fileURLToPath(new URL("../dist/runnerd-cli.cjs", import.meta.url)));
    expect(bundle.findIndex((byte) => byte > 0x7f)).toBe(-1);
  });

  it("--help exits 0", async () => {
    const result = await runBin(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: paperclip-runnerd/);
  });

  it("a malformed command line exits 1 and persists the diagnostic 0600", async () => {
    const dir = await diagnosticsDir();
    const result = await runBin(["--diagnostics-directory", dir, "--unknown-thing", "--run-id"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("paperclip-runnerd: ignored unknown flags: --unknown-thing\n");
    expect(result.stderr).toContain("paperclip-runnerd: missing value for --run-id\n");
    const diagnostic = await diagnosticOf(dir);
    expect(diagnostic).toBe(
      "paperclip-runnerd: missing value for --run-id\ncode: ERR_RUNNER_MISSING_VALUE\n" +
        'details: {"name":"--run-id"}\nignored unknown flags: --unknown-thing\n',
    );
    expect((await stat(join(dir, "runnerd.stderr.log"))).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(["runnerd.stderr.log"]);
  });

  it("a 0755 diagnostics directory: both the failure and the seed error on stderr, exit 1, nothing written", async () => {
    const dir = await diagnosticsDir(0o755);
    const result = await runBin(["--diagnostics-directory", dir, "--build-metadata", "--extra"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "paperclip-runnerd: invalid --build-metadata: must be the only argument\n",
    );
    expect(result.stderr).toContain(
      `paperclip-runnerd: could not persist the runner diagnostic: ${SEED_MESSAGE} [ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS]\n`,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("a missing diagnostics directory: its OS error on stderr after the original failure", async () => {
    const dir = join(tempDirForTest(), "absent");
    const result = await runBin(["--diagnostics-directory", dir, "--script"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("paperclip-runnerd: missing value for --script\n");
    expect(result.stderr).toContain(
      `could not persist the runner diagnostic: ENOENT: no such file or directory, lstat '${dir}' [ERR_RUNNER_DIAGNOSTICS_DIR_MISSING]\n`,
    );
  });

  it("as a non-root user, a 0500 directory passes the check and the write fails with EACCES", async () => {
    const base = tempDirForTest();
    await chmod(base, 0o711); // let uid 65534 traverse to its directory
    const dir = join(base, "diagnostics");
    await mkdir(dir);
    await chown(dir, 65534, 65534);
    await chmod(dir, 0o500);
    const result = await runBin(["--diagnostics-directory", dir, "--script"], {
      ...(await asNobody()),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("paperclip-runnerd: missing value for --script\n");
    expect(result.stderr).toMatch(
      /could not persist the runner diagnostic: EACCES: permission denied, open '.*\/\.runnerd\.stderr\.log\.\d+\.0\.tmp' \[ERR_RUNNER_DIAGNOSTICS_WRITE_FAILED\]\n/,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("as a non-root user, its own 0700 directory is written 0600 and owned by that user", async () => {
    const base = tempDirForTest();
    await chmod(base, 0o711);
    const dir = join(base, "diagnostics");
    await mkdir(dir);
    await chown(dir, 65534, 65534);
    await chmod(dir, 0o700);
    const result = await runBin(["--diagnostics-directory", dir, "--script"], {
      ...(await asNobody()),
    });
    expect(result.code).toBe(1);
    const info = await stat(join(dir, "runnerd.stderr.log"));
    expect([info.uid, info.mode & 0o777]).toEqual([65534, 0o600]);
    expect(await diagnosticOf(dir)).toMatch(/^paperclip-runnerd: missing value for --script\n/);
  });

  it("as a non-root user, a 0700 directory owned by root is refused with ERR_RUNNER_DIAGNOSTICS_DIR_OWNER", async () => {
    const base = tempDirForTest();
    await chmod(base, 0o711);
    const dir = join(base, "diagnostics");
    await mkdir(dir, { mode: 0o700 });
    const result = await runBin(["--diagnostics-directory", dir, "--script"], {
      ...(await asNobody()),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "could not persist the runner diagnostic: runner diagnostics directory is not owned by the daemon's effective user [ERR_RUNNER_DIAGNOSTICS_DIR_OWNER]\n",
    );
  });

  it("as a non-root user, its own 0300 directory (no read bit) fails at the open with its OS error", async () => {
    const base = tempDirForTest();
    await chmod(base, 0o711);
    const dir = join(base, "diagnostics");
    await mkdir(dir);
    await chown(dir, 65534, 65534);
    await chmod(dir, 0o300);
    const result = await runBin(["--diagnostics-directory", dir, "--script"], {
      ...(await asNobody()),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `could not persist the runner diagnostic: EACCES: permission denied, open '${dir}' [ERR_RUNNER_DIAGNOSTICS_DIR_MISSING]\n`,
    );
  });

  it("the uncaught-exception path persists a redacted diagnostic and exits 1", async () => {
    const dir = await diagnosticsDir();
    const secret = "sk-live-uncaught-0123456789";
    const result = await runBin(["--diagnostics-directory", dir, "--build-metadata"], {
      nodeArgs: ["--import", INJECT_FAULT],
      env: { ...process.env, RUNNERD_TEST_FAULT: "exception", RUNNERD_TEST_SECRET: secret },
    });
    expect(result.code).toBe(1);
    const diagnostic = await diagnosticOf(dir);
    expect(diagnostic).toMatch(
      /^paperclip-runnerd: uncaught exception: injected failure, OPENAI_API_KEY=\[REDACTED\]\n/,
    );
    expect(diagnostic).toContain("stack:\n  at ");
    expect(diagnostic).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
    expect(result.stderr).toContain("uncaught exception: injected failure");
  });

  it("a launcher that closed the daemon's stdout: the real EPIPE is an uncaught exception, persisted", async () => {
    const dir = await diagnosticsDir();
    const child = childForTest(() =>
      spawn(process.execPath, [BIN, "--diagnostics-directory", dir, "--build-metadata"], {
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    child.stdout.destroy();
    child.stderr.resume();
    const [code] = await once(child, "exit");
    expect(code).toBe(1);
    expect(await diagnosticOf(dir)).toMatch(/^paperclip-runnerd: uncaught exception: write EPIPE\nstack:\n/);
  });

  it("the unhandled-rejection path persists a redacted diagnostic and exits 1", async () => {
    const dir = await diagnosticsDir();
    const secret = "rejected-credential-0123456789";
    const result = await runBin(["--diagnostics-directory", dir, "--build-metadata"], {
      nodeArgs: ["--import", INJECT_FAULT],
      env: { ...process.env, RUNNERD_TEST_FAULT: "rejection", RUNNERD_TEST_SECRET: secret },
    });
    expect(result.code).toBe(1);
    const diagnostic = await diagnosticOf(dir);
    expect(diagnostic).toMatch(
      /^paperclip-runnerd: unhandled rejection: injected rejection, Authorization: Bearer \[REDACTED\]\n/,
    );
    expect(diagnostic).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  });

  it("two daemons failing into one directory at once: both exit 1, the file is one whole diagnostic", async () => {
    const dir = await diagnosticsDir();
    const results = await Promise.all(
      ["--first-launcher", "--second-launcher"].map((flag) =>
        runBin(["--diagnostics-directory", dir, flag, "--script"]),
      ),
    );
    expect(results.map((result) => result.code)).toEqual([1, 1]);
    expect(results.every((result) => !result.stderr.includes("could not persist"))).toBe(true);
    expect(await diagnosticOf(dir)).toMatch(
      /^paperclip-runnerd: missing value for --script\n[\s\S]*\nignored unknown flags: --(first|second)-launcher\n$/,
    );
    expect(await readdir(dir)).toEqual(["runnerd.stderr.log"]);
  });

  it("local mode: a missing required argument is persisted", async () => {
    const dir = await diagnosticsDir();
    const result = await runBin(["--diagnostics-directory", dir, "--session-id", "s", "--runner-id", "x"]);
    expect(result.code).toBe(1);
    expect(await diagnosticOf(dir)).toBe(
      'paperclip-runnerd: missing required argument --run-id\ncode: ERR_RUNNER_MISSING_ARGUMENT\ndetails: {"name":"--run-id"}\n',
    );
  });

  it("local mode: an uncaught exception while the harness runs is persisted, exit 1", async () => {
    const dir = await diagnosticsDir();
    const script = join(tempDirForTest(), "script.json");
    await writeFile(script, JSON.stringify({ steps: [{ ready: { name: "fake" } }, { sleep: 60_000 }] }));
    const command = (commandId: string, controllerSeq: number, type: string) =>
      `${JSON.stringify({ schema: "paperclip.prp.command.v1", commandId, controllerSeq, type, payload: {} })}\n`;
    const secret = "ghp_uncaughtInLocalMode0123456789";
    const result = await runBin(
      [
        ...["--diagnostics-directory", dir, "--run-id", "r", "--session-id", "s", "--runner-id", "x"],
        ...["--fake-harness", "builtin", "--script", script],
      ],
      {
        nodeArgs: ["--import", INJECT_FAULT],
        env: {
          ...process.env,
          RUNNERD_TEST_FAULT: "exception",
          RUNNERD_TEST_FAULT_AFTER: "harness.ready",
          RUNNERD_TEST_SECRET: secret,
        },
        stdin: command("c1", 1, "run.prepare") + command("c2", 2, "session.open"),
        keepStdinOpen: true,
      },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('"eventType":"harness.ready"');
    const diagnostic = await diagnosticOf(dir);
    expect(diagnostic).toMatch(
      /^paperclip-runnerd: uncaught exception: injected failure, OPENAI_API_KEY=\[REDACTED\]\n/,
    );
    expect(diagnostic).not.toContain(secret);
  });
});
