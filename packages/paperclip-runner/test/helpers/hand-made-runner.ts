import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { childForTest, tempDirForTest } from "@paperclipai/test-support";
import { parseDurableState } from "../../src/durable/state/parse-durable-state.js";
import { HAND_MADE_IDENTITY, HAND_MADE_RUNNER_FLAGS } from "./hand-made-identity.js";
import { BIN } from "./run-bin.js";

/** The ticket a hand-made runner is launched with (and the hand-made server proves). */
export const HAND_MADE_TICKET = "bootstrap_00000000-0000-4000-8000-0000000000aa";

export interface Launched {
  readonly child: ChildProcess;
  readonly stateDir: string;
  readonly exited: Promise<{ readonly code: number | null; readonly stderr: string }>;
}

/** A started hand-made runner: its process, its stderr so far, and its exit code once it has exited. */
export interface HandMadeRun {
  readonly child: ChildProcess;
  stderr(): string;
  readonly closed: Promise<number | null>;
}

/**
 * The built bin in durable mode with the hand-made identity and the built-in scripted harness, as
 * the server launches it: `endpoint` names the server (`--connect-url`) or where to wait for it
 * (the listen flags); a refused frame ends the run at once, a dropped connection is retried every
 * `reconnectDelayMs` for 300 ms.
 */
export function spawnHandMadeRunner(options: {
  readonly endpoint: readonly string[];
  readonly stateDir: string;
  readonly extra?: readonly string[];
  readonly ticket?: string;
  readonly reconnectDelayMs?: number;
  readonly reconnectGraceMs?: number;
  /** The runner to start (its argv before the flags): this one's bin unless given (upstream's, say). */
  readonly command?: readonly [string, ...string[]];
  /** Added to the runner's environment (`CODEX_HOME` for the fake app-server, say). */
  readonly env?: Readonly<Record<string, string>>;
}): HandMadeRun {
  const [file, ...leading] = options.command ?? [process.execPath, BIN];
  const child = childForTest(() =>
    spawn(
      file,
      [
        ...leading,
        ...options.endpoint,
        "--state-dir",
        options.stateDir,
        ...HAND_MADE_RUNNER_FLAGS,
        "--reconnect-delay-ms",
        String(options.reconnectDelayMs ?? 50),
        "--reconnect-grace-ms",
        String(options.reconnectGraceMs ?? 300),
        ...(options.extra ?? []),
      ],
      {
        env: {
          ...process.env,
          ...options.env,
          PAPERCLIP_RUNNER_BOOTSTRAP_TICKET: options.ticket ?? HAND_MADE_TICKET,
        },
        stdio: ["ignore", "ignore", "pipe"],
      },
    ),
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, stderr: () => stderr, closed };
}

/** The built bin in durable mode dialling `url` (`spawnHandMadeRunner`). */
export function launchRunner(
  url: string,
  extra: readonly string[] = [],
  stateDir = join(tempDirForTest(), "state"),
): Launched {
  const run = spawnHandMadeRunner({ endpoint: ["--connect-url", url], stateDir, extra });
  const exited = run.closed.then((code) => ({ code, stderr: run.stderr() }));
  return { child: run.child, stateDir, exited };
}

/** The server-facing state file as the next runner reads it (throws on one it would refuse). */
export const durableState = async (stateDir: string) =>
  parseDurableState(await readFile(join(stateDir, "runner-state.json"), "utf8"), HAND_MADE_IDENTITY);
