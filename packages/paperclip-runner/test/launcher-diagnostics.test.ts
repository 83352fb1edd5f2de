// The daemon's failure diagnostics, checked as its launcher sees them: the built bin
// started with a --diagnostics-directory of every kind, made to fail with crafted
// secrets (an uncaught exception carrying every secret shape and 300 KiB of noise,
// secrets in argument values that end up in OS error messages), and SIGKILLed while it
// persists, stopped at each phase of the atomic write. Only the bin's observable output
// is used: exit status, stderr, the files.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, chown, lstat, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { childrenForFile, tempDirForFile } from "@paperclipai/test-support";
import { beforeAll, describe, expect, it } from "vitest";
import { PERSIST_PAUSE_PRELOAD, PERSIST_PHASES, pausedAt } from "./helpers/persist-pause.js";

const BIN = fileURLToPath(new URL("../bin/paperclip-runnerd.js", import.meta.url));
const PRELOAD = fileURLToPath(new URL("./fixtures/secret-fault-preload.mjs", import.meta.url));
const FILE = "runnerd.stderr.log";
const LIMIT = 65_536;
const SUFFIX = "\u2026[truncated]";
const SEED_MESSAGE = "runner diagnostics directory is accessible by group or other users";
const SEED_CODE = "ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS";

// Made at module level: vitest runs an afterAll registered from inside a hook never.
const root = tempDirForFile("runnerd-launcher-");
// A describe.concurrent: its children are stopped after the file, not after a test.
const childForFile = childrenForFile();
const script = join(root, "script.json");
beforeAll(async () => {
  await writeFile(script, JSON.stringify({ steps: [{ ready: {} }, { waitFor: "turn.start" }, { exit: 0 }] }));
});

interface Launch {
  readonly child: ChildProcessWithoutNullStreams;
  readonly done: Promise<{ code: number | null; signal: string | null; stderr: string; stdout: string }>;
  /** Resolves on the first stderr byte: the daemon prints a failure before it persists it. */
  readonly firstStderr: Promise<void>;
}

/** Starts the bin as a launcher does; stdin stays open (the controller is still there). */
function launch(
  args: readonly string[],
  env: Record<string, string> = {},
  preload = true,
  nodeArgs: readonly string[] = [],
): Launch {
  const child = childForFile(() =>
    spawn(process.execPath, [...(preload ? ["--import", PRELOAD] : []), ...nodeArgs, BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    }),
  );
  child.stdin.on("error", () => undefined);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let seenStderr: () => void = () => undefined;
  const firstStderr = new Promise<void>((resolve) => {
    seenStderr = resolve;
  });
  child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => {
    err.push(chunk);
    seenStderr();
  });
  const done = new Promise<{ code: number | null; signal: string | null; stderr: string; stdout: string }>(
    (resolve) => {
      child.on("close", (code, signal) =>
        resolve({
          code,
          signal,
          stderr: Buffer.concat(err).toString("utf8"),
          stdout: Buffer.concat(out).toString("utf8"),
        }),
      );
    },
  );
  return { child, done, firstStderr };
}

const localArgs = (diagnostics: string): string[] => [
  "--diagnostics-directory",
  diagnostics,
  "--run-id",
  "run_diag",
  "--session-id",
  "s",
  "--runner-id",
  "n",
  "--fake-harness",
  "builtin",
  "--script",
  script,
];

/** Every secret of the preload carries the suffix; nothing else does. */
function faultEnv(
  marker: string,
  extra: Record<string, string> = {},
): { env: Record<string, string>; suffix: string } {
  const suffix = randomBytes(4).toString("hex");
  return { env: { FAULT_MARKER: marker, FAULT_SECRET_SUFFIX: suffix, ...extra }, suffix };
}

function expectWellFormedDiagnostic(bytes: Buffer, suffix: string, marker: string): string {
  expect(bytes.length).toBeLessThanOrEqual(LIMIT);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  expect(text).not.toContain(suffix);
  expect(text.startsWith(`paperclip-runnerd: uncaught exception: begin ${marker} `)).toBe(true);
  expect(text).toContain("[REDACTED]");
  expect(text.endsWith(SUFFIX)).toBe(true);
  return text;
}

async function fileMode(path: string): Promise<number> {
  return (await lstat(path)).mode & 0o777;
}

async function directoryOf(kind: string): Promise<string> {
  const path = join(root, `dir-${kind}-${randomBytes(3).toString("hex")}`);
  if (/^0[0-7]{3}$/.test(kind)) {
    await mkdir(path);
    await chmod(path, Number.parseInt(kind, 8));
  } else if (kind === "symlink") {
    await mkdir(`${path}.target`, { mode: 0o700 });
    await symlink(`${path}.target`, path);
  } else if (kind === "file") {
    await writeFile(path, "a regular file\n");
  } else if (kind === "foreign") {
    await mkdir(path, { mode: 0o700 });
    await chown(path, 65534, 65534);
  }
  return path;
}

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

describe("daemons failing at once into one directory", { timeout: 60_000 }, () => {
  it("all persist; the file is one complete diagnostic of one of them; no temporary is left", async () => {
    const directory = await directoryOf("0700");
    const runs = ["a", "b", "c", "d"].map((name) => {
      const { env, suffix } = faultEnv(`together-${name}`);
      return { suffix, run: launch(localArgs(directory), env) };
    });
    const results = await Promise.all(runs.map(({ run }) => run.done));
    for (const result of results) {
      expect(result.code).toBe(1);
      expect(result.stderr).not.toContain("could not persist");
    }
    expect(await readdir(directory)).toEqual([FILE]);
    const bytes = await readFile(join(directory, FILE));
    const marker = /^paperclip-runnerd: uncaught exception: begin (together-[a-d]) /.exec(
      bytes.toString("utf8"),
    )?.[1];
    const winner = runs.find((_, index) => marker === `together-${"abcd"[index]}`);
    expect(winner).toBeDefined();
    expectWellFormedDiagnostic(bytes, winner?.suffix ?? "", marker ?? "");
    expect(bytes.length).toBe(LIMIT);
  });
});

describe("SIGKILL while the daemon persists", { timeout: 60_000 }, () => {
  // The daemon stops itself at each phase of its atomic persist (the preload announces the
  // phase, then blocks), so every phase is killed on every run, wherever the scheduler is.
  it.each(PERSIST_PHASES)(
    "at %s: the old diagnostic or the new complete one, never a part; the next daemon sweeps",
    async (phase) => {
      const directory = await directoryOf("0700");
      const path = join(directory, FILE);
      const first = faultEnv(`old-${phase}`);
      expect((await launch(localArgs(directory), first.env).done).code).toBe(1);
      const old = await readFile(path);
      expectWellFormedDiagnostic(old, first.suffix, `old-${phase}`);

      const { env, suffix } = faultEnv(`new-${phase}`, { PERSIST_PAUSE_AT: phase });
      const run = launch(localArgs(directory), env, true, ["--import", PERSIST_PAUSE_PRELOAD]);
      const temporary = await pausedAt(run.child, phase);
      expect(temporary).toBe(`.${FILE}.${run.child.pid}.0.tmp`);
      run.child.kill("SIGKILL");
      const killed = await run.done;
      expect(killed.signal).toBe("SIGKILL");
      // The line the daemon printed before persisting is the text it was writing.
      const written = Buffer.from(killed.stderr.slice(0, killed.stderr.indexOf(`\npaused at ${phase} `)));
      expectWellFormedDiagnostic(written, suffix, `new-${phase}`);

      expect(await fileMode(path)).toBe(0o600);
      const target = await readFile(path);
      if (phase === "renamed") {
        expect(target.equals(written)).toBe(true);
        expect(await readdir(directory)).toEqual([FILE]);
      } else {
        expect(target.equals(old)).toBe(true);
        expect((await readdir(directory)).sort()).toEqual([temporary, FILE]);
        expect(await fileMode(join(directory, temporary))).toBe(0o600);
        const expected = { created: 0, partial: Math.floor(written.length / 2), synced: written.length }[
          phase
        ];
        expect((await readFile(join(directory, temporary))).equals(written.subarray(0, expected))).toBe(true);
      }

      const final = await launch(localArgs(directory), faultEnv("final", { FAULT_NOISE_BYTES: "10" }).env)
        .done;
      expect(final.code).toBe(1);
      expect(await readdir(directory), final.stderr).toEqual([FILE]);
      expect(await readFile(path, "utf8")).toMatch(/^paperclip-runnerd: uncaught exception: begin final /);
    },
  );
});
