import { chmod, chown, mkdir, readdir, readFile, rename, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { caught } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import {
  DIAGNOSTICS_PATH_ERRORS,
  persistRunnerDiagnostic,
  verifyPrivateDiagnosticsDirectory,
} from "../src/diagnostics/index.js";
import { openPrivateDirectory } from "../src/private-fs/index.js";

const SEED_MESSAGE = "runner diagnostics directory is accessible by group or other users";
const NOT_A_DIRECTORY = "runner diagnostics path is not a real directory";
const DEAD_PID = 4_194_400;

async function diagnosticsDir(mode = 0o700): Promise<string> {
  const dir = join(tempDirForTest(), "diagnostics");
  await mkdir(dir);
  await chmod(dir, mode);
  return dir;
}

/** Both the check and the persist refuse the directory the same way, and the persist writes nothing. */
async function refusal(dir: string) {
  const verified = await caught(verifyPrivateDiagnosticsDirectory(dir));
  const persisted = await caught(persistRunnerDiagnostic(dir, "paperclip-runnerd: boom"));
  expect(persisted.code).toBe(verified.code);
  expect(persisted.message).toBe(verified.message);
  return verified;
}

describe("the diagnostics directory matrix", () => {
  it("0700: accepted, and the diagnostic is persisted 0600", async () => {
    const dir = await diagnosticsDir(0o700);
    await expect(verifyPrivateDiagnosticsDirectory(dir)).resolves.toBeUndefined();
    await persistRunnerDiagnostic(dir, "paperclip-runnerd: boom");
    expect(await readFile(join(dir, "runnerd.stderr.log"), "utf8")).toBe("paperclip-runnerd: boom");
    expect((await stat(join(dir, "runnerd.stderr.log"))).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(["runnerd.stderr.log"]);
  });

  it.each([
    [0o750, "0750"],
    [0o755, "0755"],
    [0o770, "0770"],
    [0o707, "0707"],
  ])("mode %o: the seed error ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS", async (mode, shown) => {
    const dir = await diagnosticsDir(mode);
    const error = await refusal(dir);
    expect(error.code).toBe("ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS");
    expect(error.message).toBe(SEED_MESSAGE);
    expect(error.details).toEqual({ mode: shown });
    expect(await readdir(dir)).toEqual([]);
    expect((await stat(dir)).mode & 0o777).toBe(mode);
  });

  it("mode 0500: passes the mode check; as root the write succeeds (CAP_DAC_OVERRIDE bypasses the missing w bit)", async () => {
    expect(process.geteuid!()).toBe(0);
    const dir = await diagnosticsDir(0o500);
    await expect(verifyPrivateDiagnosticsDirectory(dir)).resolves.toBeUndefined();
    await persistRunnerDiagnostic(dir, "written by root");
    expect(await readFile(join(dir, "runnerd.stderr.log"), "utf8")).toBe("written by root");
    // The non-root case (EACCES, ERR_RUNNER_DIAGNOSTICS_WRITE_FAILED) runs the real bin as uid 65534: runnerd-bin.test.ts.
  });

  it("a symlink to a private directory: not a real directory", async () => {
    const real = await diagnosticsDir(0o700);
    const link = join(tempDirForTest(), "link");
    await symlink(real, link);
    const error = await refusal(link);
    expect(error.code).toBe("ERR_RUNNER_DIAGNOSTICS_PATH_NOT_DIRECTORY");
    expect(error.message).toBe(NOT_A_DIRECTORY);
    expect(error.details).toEqual({ kind: "symlink" });
    expect(await readdir(real)).toEqual([]);
  });

  it("a regular file: not a real directory", async () => {
    const file = join(tempDirForTest(), "file");
    await writeFile(file, "", { mode: 0o600 });
    const error = await refusal(file);
    expect(error.code).toBe("ERR_RUNNER_DIAGNOSTICS_PATH_NOT_DIRECTORY");
    expect(error.message).toBe(NOT_A_DIRECTORY);
    expect(error.details).toEqual({ kind: "file" });
  });

  it("missing: its OS error, with the errno in details", async () => {
    const dir = join(tempDirForTest(), "absent");
    const error = await refusal(dir);
    expect(error.code).toBe("ERR_RUNNER_DIAGNOSTICS_DIR_MISSING");
    expect(error.message).toBe(`ENOENT: no such file or directory, lstat '${dir}'`);
    expect(error.details).toEqual({ errno: "ENOENT", syscall: "lstat" });
  });

  it("under a regular file: its OS error (ENOTDIR)", async () => {
    const file = join(tempDirForTest(), "file");
    await writeFile(file, "");
    const error = await refusal(join(file, "diagnostics"));
    expect(error.code).toBe("ERR_RUNNER_DIAGNOSTICS_DIR_MISSING");
    expect(error.details.errno).toBe("ENOTDIR");
  });

  it("owned by another uid: ERR_RUNNER_DIAGNOSTICS_DIR_OWNER", async () => {
    const dir = await diagnosticsDir(0o700);
    await chown(dir, 65534, 65534);
    const error = await refusal(dir);
    expect(error.code).toBe("ERR_RUNNER_DIAGNOSTICS_DIR_OWNER");
    expect(error.message).toBe("runner diagnostics directory is not owned by the daemon's effective user");
    expect(error.details).toEqual({ uid: 65534, euid: 0 });
  });

  it("owned by another uid and 0755: the seed error comes first", async () => {
    const dir = await diagnosticsDir(0o755);
    await chown(dir, 65534, 65534);
    expect((await refusal(dir)).code).toBe("ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS");
  });

  it("swapped between check and open: ERR_RUNNER_DIAGNOSTICS_DIR_SWAPPED", async () => {
    const dir = await diagnosticsDir(0o700);
    const error = await caught(
      openPrivateDirectory(dir, {
        errors: DIAGNOSTICS_PATH_ERRORS,
        betweenCheckAndOpen: async () => {
          await rename(dir, `${dir}.old`);
          await symlink(`${dir}.old`, dir);
        },
      }),
    );
    expect(error.code).toBe("ERR_RUNNER_DIAGNOSTICS_DIR_SWAPPED");
    expect(error.message).toBe("runner diagnostics directory changed between check and use");
  });
});

describe("persistRunnerDiagnostic", () => {
  it("all 32 temporary names taken: could not allocate a runner diagnostic temporary file", async () => {
    const dir = await diagnosticsDir();
    for (let attempt = 0; attempt < 32; attempt += 1) {
      await writeFile(join(dir, `.runnerd.stderr.log.${process.pid}.${attempt}.tmp`), "");
    }
    const error = await caught(persistRunnerDiagnostic(dir, "boom"));
    expect(error.code).toBe("ERR_RUNNER_DIAGNOSTICS_TEMP_EXHAUSTED");
    expect(error.message).toBe("could not allocate a runner diagnostic temporary file");
    expect((await readdir(dir)).filter((name) => name === "runnerd.stderr.log")).toEqual([]);
  });

  it("31 names taken: the last attempt is used", async () => {
    const dir = await diagnosticsDir();
    for (let attempt = 0; attempt < 31; attempt += 1) {
      await writeFile(join(dir, `.runnerd.stderr.log.${process.pid}.${attempt}.tmp`), "");
    }
    await persistRunnerDiagnostic(dir, "boom");
    expect(await readFile(join(dir, "runnerd.stderr.log"), "utf8")).toBe("boom");
    expect((await readdir(dir)).length).toBe(32);
  });

  it("sweeps temporary files of dead processes, keeps those of live ones", async () => {
    const dir = await diagnosticsDir();
    const dead = `.runnerd.stderr.log.${DEAD_PID}.0.tmp`;
    const live = `.runnerd.stderr.log.${process.ppid}.0.tmp`;
    await writeFile(join(dir, dead), "half a diagnostic");
    await writeFile(join(dir, live), "");
    await persistRunnerDiagnostic(dir, "boom");
    expect((await readdir(dir)).sort()).toEqual([live, "runnerd.stderr.log"].sort());
  });

  it("a failed write (runnerd.stderr.log is a directory) leaves no temporary file", async () => {
    const dir = await diagnosticsDir();
    await mkdir(join(dir, "runnerd.stderr.log"));
    await writeFile(join(dir, "runnerd.stderr.log", "x"), "");
    const error = await caught(persistRunnerDiagnostic(dir, "boom"));
    expect(error.code).toBe("ERR_RUNNER_DIAGNOSTICS_WRITE_FAILED");
    expect(error.message).toMatch(/^(ENOTEMPTY|EISDIR|EEXIST): /);
    expect(error.details.syscall).toBe("rename");
    expect(await readdir(dir)).toEqual(["runnerd.stderr.log"]);
  });

  it("replaces the previous diagnostic and returns what it wrote, redacted and bounded", async () => {
    const dir = await diagnosticsDir();
    await persistRunnerDiagnostic(dir, "first");
    const written = await persistRunnerDiagnostic(
      dir,
      `paperclip-runnerd: OPENAI_API_KEY=raw-secret Authorization: Bearer another-secret ${"é".repeat(70_000)}`,
    );
    const file = await readFile(join(dir, "runnerd.stderr.log"));
    expect(file.toString("utf8")).toBe(written);
    expect(file.length).toBeLessThanOrEqual(65_536);
    expect(
      written.startsWith("paperclip-runnerd: OPENAI_API_KEY=[REDACTED] Authorization: Bearer [REDACTED] é"),
    ).toBe(true);
    expect(written.endsWith("é\u2026[truncated]")).toBe(true);
  });
});
