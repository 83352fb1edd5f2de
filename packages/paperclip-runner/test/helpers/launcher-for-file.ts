import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, chown, lstat, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { childrenForFile, tempDirForFile } from "@paperclipai/test-support";
import { beforeAll, expect } from "vitest";

// The launcher's view of the built bin, shared by the diagnostics files: launch it with a
// --diagnostics-directory of a chosen kind and crafted secrets (the fault preload), then read
// only what a launcher sees (exit status, stderr, the files).

const BIN = fileURLToPath(new URL("../../bin/paperclip-runnerd.js", import.meta.url));
const PRELOAD = fileURLToPath(new URL("../fixtures/secret-fault-preload.mjs", import.meta.url));
export const DIAGNOSTIC_FILE = "runnerd.stderr.log";
export const DIAGNOSTIC_LIMIT = 65_536;
const SUFFIX = "\u2026[truncated]";

export interface Launch {
  readonly child: ChildProcessWithoutNullStreams;
  readonly done: Promise<{ code: number | null; signal: string | null; stderr: string; stdout: string }>;
  /** Resolves on the first stderr byte: the daemon prints a failure before it persists it. */
  readonly firstStderr: Promise<void>;
}

/** Every secret of the preload carries the suffix; nothing else does. */
export function faultEnv(
  marker: string,
  extra: Record<string, string> = {},
): { env: Record<string, string>; suffix: string } {
  const suffix = randomBytes(4).toString("hex");
  return { env: { FAULT_MARKER: marker, FAULT_SECRET_SUFFIX: suffix, ...extra }, suffix };
}

export function expectWellFormedDiagnostic(bytes: Buffer, suffix: string, marker: string): string {
  expect(bytes.length).toBeLessThanOrEqual(DIAGNOSTIC_LIMIT);
  const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  expect(text).not.toContain(suffix);
  expect(text.startsWith(`paperclip-runnerd: uncaught exception: begin ${marker} `)).toBe(true);
  expect(text).toContain("[REDACTED]");
  expect(text.endsWith(SUFFIX)).toBe(true);
  return text;
}

export async function fileMode(path: string): Promise<number> {
  return (await lstat(path)).mode & 0o777;
}

/**
 * A file's launcher: its temp root and daemons are removed after the file. Call it at module
 * level: vitest never runs an afterAll registered from inside a hook.
 */
export function launcherForFile(prefix: string) {
  const root = tempDirForFile(prefix);
  // Children are stopped after the file, not after a test, so a describe.concurrent may use it.
  const childForFile = childrenForFile();
  const script = join(root, "script.json");
  beforeAll(async () => {
    await writeFile(
      script,
      JSON.stringify({ steps: [{ ready: {} }, { waitFor: "turn.start" }, { exit: 0 }] }),
    );
  });

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

  return { root, launch, localArgs, directoryOf };
}
