import { join } from "node:path";
import { atomicPrivateWrite, createPrivateDirectory } from "../../private-fs/index.js";
import { acquireStateLock } from "../../state/state-lock.js";
import { readStateFile } from "../../state/state-store.js";
import type { DurableIdentity } from "../durable-identity.js";
import { recoverDurableState } from "./command-journal.js";
import { durableStateFile } from "./command-journal-file.js";
import { type DurableState, initialDurableState } from "./durable-state.js";
import { parseDurableState } from "./parse-durable-state.js";
import { refuseRevokedState } from "./revoked-state.js";

/** The file the Paperclip server reads from the runner's state directory. */
export const DURABLE_STATE_FILE = "runner-state.json";
/** Where the local engine (the same run loop local mode uses) keeps its own journal. */
export const ENGINE_STATE_DIRECTORY = "engine";

export interface DurableStore {
  readonly initial: DurableState;
  /** Commands that were pending when the previous process died (now indeterminate); null on a first start. */
  readonly recovered: { readonly indeterminate: readonly string[] } | null;
  readonly engineDirectory: string;
  /** Writes the whole state with the atomic private recipe; resolves once it is durable. */
  save(state: DurableState): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens `--state-dir` for durable mode: a private directory (created 0700), one
 * runner at a time (the state lock), and the previous process's state recovered
 * and written back before anything is sent, so a second crash cannot bring a
 * pending command back. A run the server revoked is not served again (`refuseRevokedState`).
 */
export async function openDurableStore(
  stateDir: string,
  identity: DurableIdentity,
  runner: { readonly version: string; readonly digest: string },
  /** Called once the state is read and may be served (not revoked), before it is recovered and written back. */
  onServable: () => void = () => undefined,
): Promise<DurableStore> {
  await createPrivateDirectory(stateDir);
  const lock = await acquireStateLock(stateDir);
  try {
    const text = await readStateFile(join(stateDir, DURABLE_STATE_FILE));
    const previous = text === null ? null : parseDurableState(text, identity);
    if (previous !== null) refuseRevokedState(previous);
    onServable();
    const recovery = previous === null ? null : recoverDurableState(previous);
    const initial = recovery?.state ?? initialDurableState(identity, runner.version, runner.digest);
    const save = (state: DurableState): Promise<void> =>
      atomicPrivateWrite(stateDir, DURABLE_STATE_FILE, `${JSON.stringify(durableStateFile(state))}\n`);
    await save(initial);
    return {
      initial,
      recovered: recovery === null ? null : { indeterminate: recovery.indeterminate },
      engineDirectory: join(stateDir, ENGINE_STATE_DIRECTORY),
      save,
      close: () => lock.release(),
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
