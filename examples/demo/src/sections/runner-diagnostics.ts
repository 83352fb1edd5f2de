import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { explain } from "@paperclipai/errors/registry";
import type { TourContext, TourSection } from "../tour-context.js";

const BIN = join(
  dirname(createRequire(import.meta.url).resolve("@paperclipai/paperclip-runner/package.json")),
  "bin",
  "paperclip-runnerd.js",
);
const FAULT = fileURLToPath(new URL("./runner-diagnostics-fault.mjs", import.meta.url));
const SECRETS = [
  "sk-demo-live-4f9a8b7c6d5e4f3a2b1c",
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vIn0.c2lnbmF0dXJlLWRlbW8",
];
const SEED_CODE = "ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS";

interface Run {
  readonly code: number | null;
  readonly stderr: string;
}

function runDaemon(args: readonly string[], nodeArgs: readonly string[] = []): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    const stderr: Buffer[] = [];
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr: Buffer.concat(stderr).toString("utf8") }));
  });
}

async function privateDirectory(base: string, name: string, mode: number): Promise<string> {
  const dir = join(base, name);
  await mkdir(dir);
  await chmod(dir, mode);
  return dir;
}

async function crashWithASecret(context: TourContext, base: string): Promise<string> {
  const dir = await privateDirectory(base, "diagnostics", 0o700);
  context.log(`paperclip-runnerd --diagnostics-directory ${dir} --build-metadata`);
  context.log("  (a preloaded fault throws an uncaught error quoting an API key, a JWT and a 200 KiB body)");
  const run = await runDaemon(["--diagnostics-directory", dir, "--build-metadata"], ["--import", FAULT]);
  if (run.code !== 1) throw new Error(`expected exit status 1, got ${run.code}`);
  const path = join(dir, "runnerd.stderr.log");
  const [bytes, info] = await Promise.all([readFile(path), stat(path)]);
  const text = bytes.toString("utf8");
  const leaked = SECRETS.filter((secret) => text.includes(secret) || run.stderr.includes(secret));
  if (leaked.length > 0) throw new Error("a secret reached the diagnostic");
  const mode = (info.mode & 0o777).toString(8).padStart(4, "0");
  context.log(`exit 1; ${path}: mode ${mode}, ${bytes.length} bytes`);
  context.log(`first line: ${text.split("\n")[0]?.slice(0, 150)}…`);
  context.log(`last bytes: …${text.slice(-40)}`);
  return `persisted ${mode}, ${bytes.length} of at most 65536 bytes, ${SECRETS.length} secrets redacted, ends …[truncated]`;
}

async function refuseASharedDirectory(context: TourContext, base: string): Promise<string> {
  const dir = await privateDirectory(base, "shared", 0o755);
  context.log(`chmod 755 ${dir}; paperclip-runnerd --diagnostics-directory ${dir} --run-id run_1 --script`);
  const run = await runDaemon(["--diagnostics-directory", dir, "--run-id", "run_1", "--script"]);
  for (const line of run.stderr.trimEnd().split("\n")) context.log(`stderr: ${line}`);
  if (run.code !== 1 || !run.stderr.includes(`[${SEED_CODE}]`))
    throw new Error("the seed error was not reported");
  if ((await readdir(dir)).length > 0) throw new Error("the daemon wrote into a shared directory");
  const page = explain(SEED_CODE).split("\n");
  const solutions = page.slice(page.indexOf("## Solutions") + 2).filter((line) => /^\d+\. /.test(line));
  context.log(`explain("${SEED_CODE}"): ${page[0]}`);
  for (const solution of solutions.slice(0, 2)) context.log(`  ${solution}`);
  await chmod(dir, 0o700);
  const fixed = await runDaemon(["--diagnostics-directory", dir, "--run-id", "run_1", "--script"]);
  const persisted = await readFile(join(dir, "runnerd.stderr.log"), "utf8");
  context.log(`after chmod 700: exit ${fixed.code}, persisted "${persisted.split("\n")[0]}"`);
  return `both failures on stderr, nothing written, then persisted after chmod 700`;
}

/** The diagnostics half of the runner tour: a crash's secrets never reach the disk, a shared directory is refused. */
export const runnerDiagnosticsSection: TourSection = async (context) => {
  const base = await mkdtemp(join(tmpdir(), "paperclip-tour-diagnostics-"));
  try {
    await context.step("the daemon crashes with secrets in its error", () => crashWithASecret(context, base));
    await context.step("a 0755 diagnostics directory raises the seed error", () =>
      refuseASharedDirectory(context, base),
    );
  } finally {
    await rm(base, { recursive: true, force: true });
  }
};
