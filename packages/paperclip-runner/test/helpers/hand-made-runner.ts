import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { childForTest, tempDirForTest } from "@paperclipai/test-support";
import { parseDurableState } from "../../src/durable/state/parse-durable-state.js";
import { HAND_MADE_IDENTITY, HAND_MADE_RUNNER_FLAGS } from "./hand-made-prp-server.js";
import { BIN } from "./run-bin.js";

/** The ticket a hand-made runner is launched with (and the hand-made server proves). */
export const HAND_MADE_TICKET = "bootstrap_00000000-0000-4000-8000-0000000000aa";

export interface Launched {
  readonly child: ChildProcess;
  readonly stateDir: string;
  readonly exited: Promise<{ readonly code: number | null; readonly stderr: string }>;
}

/**
 * The built bin in durable mode dialling `url`, with the hand-made identity and the built-in
 * scripted harness, as the server launches it: a refused frame ends the run at once, a dropped
 * connection is retried for 300 ms.
 */
export function launchRunner(
  url: string,
  extra: readonly string[] = [],
  stateDir = join(tempDirForTest(), "state"),
): Launched {
  const child = childForTest(() =>
    spawn(
      process.execPath,
      [
        BIN,
        "--connect-url",
        url,
        "--state-dir",
        stateDir,
        ...HAND_MADE_RUNNER_FLAGS,
        "--reconnect-delay-ms",
        "50",
        "--reconnect-grace-ms",
        "300",
        ...extra,
      ],
      {
        env: { ...process.env, PAPERCLIP_RUNNER_BOOTSTRAP_TICKET: HAND_MADE_TICKET },
        stdio: ["ignore", "ignore", "pipe"],
      },
    ),
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stderr })),
  );
  return { child, stateDir, exited };
}

/** The server-facing state file as the next runner reads it (throws on one it would refuse). */
export const durableState = async (stateDir: string) =>
  parseDurableState(await readFile(join(stateDir, "runner-state.json"), "utf8"), HAND_MADE_IDENTITY);
