// The daemon's failure diagnostics, checked as its launcher sees them: the built bin
// started with a --diagnostics-directory of every kind, made to fail with crafted
// secrets (an uncaught exception carrying every secret shape and 300 KiB of noise,
// secrets in argument values that end up in OS error messages). Only the bin's
// observable output is used: exit status, stderr, the files. Races (daemons failing
// together, a SIGKILL mid-persist) are in launcher-diagnostics-races.test.ts.
import { randomBytes } from "node:crypto";
import { lstat, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  expectWellFormedDiagnostic,
  DIAGNOSTIC_FILE as FILE,
  faultEnv,
  fileMode,
  DIAGNOSTIC_LIMIT as LIMIT,
  launcherForFile,
} from "./helpers/launcher-for-file.js";

const SEED_MESSAGE = "runner diagnostics directory is accessible by group or other users";
const SEED_CODE = "ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS";

const { root, launch, localArgs, directoryOf } = launcherForFile("runnerd-launcher-");

// Every case launches real daemons: a loaded 2-core CI machine gets a wide budget per test.
describe.concurrent("diagnostics as the launcher sees them", { timeout: 60_000 }, () => {
  it.each(["0700", "0500"])(
    "%s: an uncaught exception full of secrets is persisted 0600, bounded, valid UTF-8, redacted",
    async (mode) => {
      const directory = await directoryOf(mode);
      const { env, suffix } = faultEnv("private");
      const result = await launch(localArgs(directory), env).done;
      expect(result.code).toBe(1);
      const path = join(directory, FILE);
      expect(await fileMode(path)).toBe(0o600);
      const text = expectWellFormedDiagnostic(await readFile(path), suffix, "private");
      // 300 KiB of ASCII noise: the cut lands exactly on the limit.
      expect(Buffer.byteLength(text)).toBe(LIMIT);
      expect(await readdir(directory)).toEqual([FILE]);
      // stderr holds the same redacted, bounded text, and nothing secret.
      expect(result.stderr).not.toContain(suffix);
      expect(result.stderr.startsWith(text)).toBe(true);
    },
  );

  it("a runnerd.stderr.log planted as a symlink is replaced, never followed", async () => {
    const directory = await directoryOf("0700");
    const outside = join(root, `outside-${randomBytes(3).toString("hex")}.txt`);
    await writeFile(outside, "not yours\n");
    await symlink(outside, join(directory, FILE));
    const { env, suffix } = faultEnv("planted", { FAULT_NOISE_BYTES: "10" });
    expect((await launch(localArgs(directory), env).done).code).toBe(1);
    expect(await readFile(outside, "utf8")).toBe("not yours\n");
    const planted = await lstat(join(directory, FILE));
    expect(planted.isFile()).toBe(true);
    expect(planted.mode & 0o777).toBe(0o600);
    const text = await readFile(join(directory, FILE), "utf8");
    expect(text.startsWith("paperclip-runnerd: uncaught exception: begin planted ")).toBe(true);
    expect(text).not.toContain(suffix);
  });

  it("an unhandled rejection is persisted the same way", async () => {
    const directory = await directoryOf("0700");
    const { env, suffix } = faultEnv("rejected", { FAULT_KIND: "rejection", FAULT_NOISE_BYTES: "100" });
    const result = await launch(localArgs(directory), env).done;
    expect(result.code).toBe(1);
    const text = new TextDecoder("utf-8", { fatal: true }).decode(await readFile(join(directory, FILE)));
    expect(text.startsWith("paperclip-runnerd: unhandled rejection: begin rejected ")).toBe(true);
    expect(text).toContain(" end rejected");
    expect(text).toMatch(/\nstack:\n {2}at /);
    expect(text).not.toContain(suffix);
    expect(text).not.toContain("pemline");
    expect(result.stderr).not.toContain(suffix);
  });

  it("a thrown value whose stack getter throws is still reported once, and the daemon exits 1", async () => {
    const directory = await directoryOf("0700");
    const { env, suffix } = faultEnv("hostile", { FAULT_KIND: "hostile", FAULT_NOISE_BYTES: "10" });
    const result = await launch(localArgs(directory), env).done;
    expect(result.code).toBe(1);
    const text = await readFile(join(directory, FILE), "utf8");
    expect(text).toMatch(
      /^paperclip-runnerd: uncaught exception: \[the failure could not be described: .+\]\n$/,
    );
    expect(text).not.toContain(suffix);
    expect(result.stderr).toBe(text);
  });

  it.each(["0755", "0750", "0770", "0707"])(
    "%s: the seed error, with its exact message and code, on stderr; nothing written",
    async (mode) => {
      const directory = await directoryOf(mode);
      const { env, suffix } = faultEnv("shared");
      const result = await launch(localArgs(directory), env).done;
      expect(result.code).toBe(1);
      expect(await readdir(directory)).toEqual([]);
      const lines = result.stderr.split("\n");
      // The original failure first, then the persist failure (upstream lost the first).
      expect(lines[0]?.startsWith("paperclip-runnerd: uncaught exception: begin shared ")).toBe(true);
      expect(lines).toContain(
        `paperclip-runnerd: could not persist the runner diagnostic: ${SEED_MESSAGE} [${SEED_CODE}]`,
      );
      expect(result.stderr).not.toContain(suffix);
      expect(Buffer.byteLength(result.stderr)).toBeLessThanOrEqual(2 * LIMIT);
    },
  );

  it.each([
    [
      "symlink",
      "runner diagnostics path is not a real directory",
      "ERR_RUNNER_DIAGNOSTICS_PATH_NOT_DIRECTORY",
    ],
    ["file", "runner diagnostics path is not a real directory", "ERR_RUNNER_DIAGNOSTICS_PATH_NOT_DIRECTORY"],
    ["missing", "ENOENT: no such file or directory, lstat '", "ERR_RUNNER_DIAGNOSTICS_DIR_MISSING"],
    [
      "foreign",
      "runner diagnostics directory is not owned by the daemon's effective user",
      "ERR_RUNNER_DIAGNOSTICS_DIR_OWNER",
    ],
  ])("%s: refused with %j [%s], nothing written, no secret on stderr", async (kind, message, code) => {
    const directory = await directoryOf(kind);
    const { env, suffix } = faultEnv(kind, { FAULT_NOISE_BYTES: "10" });
    const result = await launch(localArgs(directory), env).done;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`paperclip-runnerd: could not persist the runner diagnostic: ${message}`);
    expect(result.stderr).toContain(`[${code}]\n`);
    expect(result.stderr).not.toContain(suffix);
    if (kind === "symlink") expect(await readdir(`${directory}.target`)).toEqual([]);
    if (kind === "file") expect(await readFile(directory, "utf8")).toBe("a regular file\n");
    if (kind === "missing") await expect(lstat(directory)).rejects.toThrow(/ENOENT/);
    if (kind === "foreign") expect(await readdir(directory)).toEqual([]);
  });

  it.each(["/", "/.", "/./", "//"])(
    "a symlink spelled with %j after it is still refused as a symlink",
    async (spelling) => {
      const directory = await directoryOf("symlink");
      const { env, suffix } = faultEnv("spelled", { FAULT_NOISE_BYTES: "10" });
      const result = await launch(localArgs(`${directory}${spelling}`), env).done;
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "paperclip-runnerd: could not persist the runner diagnostic: runner diagnostics path is not a real directory [ERR_RUNNER_DIAGNOSTICS_PATH_NOT_DIRECTORY]\n",
      );
      expect(await readdir(`${directory}.target`)).toEqual([]);
      expect(result.stderr).not.toContain(suffix);
    },
  );

  it("secrets in argument values that reach OS error messages are redacted on stderr and in the file", async () => {
    const directory = await directoryOf("0700");
    const tag = randomBytes(4).toString("hex");
    const stateDir = join(
      root,
      "no-such-parent",
      `password=pw${tag}x`,
      `ghp_${tag}abcdefghijklmnopqrstuv`,
      "state",
    );
    const args = [
      ...localArgs(directory),
      "--state-dir",
      stateDir,
      `--api-key=sk-${tag}abcdefghijkl`,
      `--sk-proj-${tag}abcdefghijkl`,
      `--mode=plain${tag}`,
    ];
    const result = await launch(args, {}, false).done;
    expect(result.code).toBe(1);
    const text = await readFile(join(directory, FILE), "utf8");
    expect(text.startsWith("paperclip-runnerd: ENOENT: no such file or directory, mkdir ")).toBe(true);
    expect(text).toContain("code: ERR_RUNNER_PRIVATE_DIR_MISSING");
    expect(text).toContain("ignored unknown flags: --api-key=[REDACTED], --[REDACTED], --mode=[REDACTED]");
    expect(text).not.toContain(tag);
    expect(result.stderr).not.toContain(tag);
    expect(result.stderr).toContain(text);
  });

  it("a diagnostics path holding a secret is redacted in the persist failure", async () => {
    const tag = randomBytes(4).toString("hex");
    const directory = join(root, `token=tok${tag}secret`, "diagnostics");
    const result = await launch(["--diagnostics-directory", directory], {}, false).done;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("paperclip-runnerd: missing required argument --run-id\n");
    expect(result.stderr).toContain("[ERR_RUNNER_DIAGNOSTICS_DIR_MISSING]");
    expect(result.stderr).not.toContain(tag);
  });
});
