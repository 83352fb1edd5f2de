import { join } from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { atomicPrivateWrite, createPrivateDirectory, openPrivateFile } from "../private-fs/index.js";
import { wrapOsError } from "../private-fs/os-error.js";
import { parseRunnerState } from "./parse-runner-state.js";
import { type Recovery, recoverRunnerState } from "./recover-runner-state.js";
import { initialRunnerState, type RunnerState, STATE_FILE_NAME, type StateBinding } from "./runner-state.js";
import { acquireStateLock, type StateLock } from "./state-lock.js";

/** Where the run's state lives: `runner-state.json` in a private directory, or nowhere (no `--state-dir`). */
export interface StateStore {
  readonly initial: RunnerState;
  /** Set when an earlier daemon left state behind. */
  readonly recovery: Recovery | null;
  readonly durable: boolean;
  save(state: RunnerState): Promise<void>;
  close(): Promise<void>;
}

export function memoryStateStore(binding: StateBinding): StateStore {
  return {
    initial: initialRunnerState(binding),
    recovery: null,
    durable: false,
    save: async () => undefined,
    close: async () => undefined,
  };
}

/**
 * Opens `--state-dir`: creates it 0700 (or verifies an existing one), takes the
 * one-daemon lock, and reads the previous daemon's state. The recovered state
 * (pending commands made indeterminate) is written back before anything else
 * happens, so even a second crash cannot bring a pending entry back.
 */
export async function openDurableStateStore(stateDir: string, binding: StateBinding): Promise<StateStore> {
  await createPrivateDirectory(stateDir);
  const lock: StateLock = await acquireStateLock(stateDir);
  try {
    const text = await readStateFile(join(stateDir, STATE_FILE_NAME));
    const recovery = text === null ? null : recoverRunnerState(parseRunnerState(text, binding));
    const initial = recovery?.state ?? initialRunnerState(binding);
    const save = (state: RunnerState): Promise<void> =>
      atomicPrivateWrite(stateDir, STATE_FILE_NAME, `${JSON.stringify(state)}\n`);
    await save(initial);
    return { initial, recovery, durable: true, save, close: () => lock.release() };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** The text of a private state file (checked like any private file), or null when there is none. */
export async function readStateFile(path: string): Promise<string | null> {
  let handle: Awaited<ReturnType<typeof openPrivateFile>>;
  try {
    handle = await openPrivateFile(path);
  } catch (error) {
    if (PaperclipError.is(error, "ERR_RUNNER_PRIVATE_FILE_UNAVAILABLE") && error.details.errno === "ENOENT")
      return null;
    throw error;
  }
  try {
    return await handle.readFile("utf8");
  } catch (error) {
    throw wrapOsError("ERR_RUNNER_PRIVATE_FILE_UNAVAILABLE", error);
  } finally {
    await handle.close();
  }
}
