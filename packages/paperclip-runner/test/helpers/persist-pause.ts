import type { ChildProcess } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The phases of an atomic private write where `persist-pause-preload.mjs` can stop a process, in order. */
export const PERSIST_PHASES = ["created", "partial", "synced", "renamed"] as const;
export type PersistPhase = (typeof PERSIST_PHASES)[number];

/** The preload (`node --import`) that stops a process at `PERSIST_PAUSE_AT`. */
export const PERSIST_PAUSE_PRELOAD = fileURLToPath(
  new URL("../fixtures/persist-pause-preload.mjs", import.meta.url),
);

/**
 * Resolves with the temporary file name once `child` announced on stderr that
 * it stopped at `phase`; rejects when it exits first. The stream keeps flowing.
 */
export function pausedAt(child: ChildProcess, phase: PersistPhase): Promise<string> {
  const stderr = child.stderr;
  if (!stderr) throw new Error("the child's stderr must be a pipe");
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += String(chunk);
      const match = new RegExp(`^paused at ${phase} (\\S+)$`, "m").exec(seen);
      if (!match?.[1]) return;
      stderr.off("data", onData);
      child.off("exit", onExit);
      resolve(match[1]);
    };
    const onExit = () => reject(new Error(`the child exited before pausing at ${phase}: ${seen}`));
    stderr.on("data", onData);
    child.once("exit", onExit);
  });
}

/** The preload's environment for a runner: it stops once a write of `file` matching `pattern` is renamed into place. */
export const pausedAtWrite = (file: string, pattern: string): Record<string, string> => ({
  // A URL: NODE_OPTIONS splits on spaces, and a checkout path may contain one.
  NODE_OPTIONS: `--import=${pathToFileURL(PERSIST_PAUSE_PRELOAD).href}`,
  PERSIST_PAUSE_AT: "renamed",
  PERSIST_PAUSE_FILE: file,
  PERSIST_PAUSE_PATTERN: pattern,
});
