import { lstatSync } from "node:fs";
import { join } from "node:path";
import { harnessLauncher } from "../../local/harness-launcher.js";
import { DEFAULT_LIMITS } from "../../local/local-options.js";
import { atomicPrivateWrite, createPrivateDirectory } from "../../private-fs/index.js";
import { STATE_FILE_NAME } from "../../state/runner-state.js";
import { openDurableStateStore, type StateStore } from "../../state/state-store.js";
import type { DurableOptions } from "../durable-options.js";
import { BUILTIN_SCRIPT, BUILTIN_SCRIPT_FILE } from "./builtin-script.js";

export interface ScriptedEngineFiles {
  readonly store: StateStore;
  readonly launcher: ReturnType<typeof harnessLauncher>;
}

/** Whether an earlier runner left the scripted engine's state in `engineDirectory` (a restart of a scripted run). */
export async function scriptedStateWritten(engineDirectory: string): Promise<boolean> {
  // One direct `lstat` (no thread-pool round trip): every durable runner asks before its handshake.
  try {
    return lstatSync(join(engineDirectory, STATE_FILE_NAME), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/**
 * The scripted engine's private directory, its state store (the same run loop
 * local mode uses) and its harness launcher: the built-in script is written
 * there when the run names no script that exists and no harness command.
 */
export async function openScriptedEngineFiles(
  options: DurableOptions,
  engineDirectory: string,
  log: (line: string) => void,
): Promise<ScriptedEngineFiles> {
  await createPrivateDirectory(engineDirectory);
  let scriptPath = options.fakeHarnessScript;
  if (scriptPath === null && options.harnessCommand === null) {
    await atomicPrivateWrite(engineDirectory, BUILTIN_SCRIPT_FILE, JSON.stringify(BUILTIN_SCRIPT));
    scriptPath = join(engineDirectory, BUILTIN_SCRIPT_FILE);
    log("the fake harness script given does not exist; running the built-in script");
  }
  const binding = {
    runId: options.identity.runId,
    sessionId: options.identity.normalizedSessionId,
    runnerId: options.identity.runnerInstanceId,
  };
  const store = await openDurableStateStore(engineDirectory, binding);
  const launcher = harnessLauncher(
    {
      binding,
      harness:
        options.harnessCommand === null
          ? { kind: "fake", scriptPath: scriptPath as string, delayMs: null }
          : { kind: "command", ...options.harnessCommand },
      stateDir: engineDirectory,
      sandbox: null,
      passEnv: [],
      limits: DEFAULT_LIMITS,
    },
    process.env,
  );
  return { store, launcher };
}
