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
  /**
   * Writes the whole state with the atomic private recipe; resolves once it is durable. After
   * `close` it writes nothing and never settles (the directory may be another runner's by then).
   */
  save(state: DurableState): Promise<void>;
  /** Waits for the writes under way, then releases the state lock. */
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
    const write = (state: DurableState): Promise<void> =>
      atomicPrivateWrite(stateDir, DURABLE_STATE_FILE, `${JSON.stringify(durableStateFile(state))}\n`);
    await write(initial);
    // A step of the run still under way when it ended (a command its engine answered late) must
    // not write once the lock is released: a relaunch holding it would have its state replaced.
    let closed = false;
    const writing = new Set<Promise<void>>();
    return {
      initial,
      recovered: recovery === null ? null : { indeterminate: recovery.indeterminate },
      engineDirectory: join(stateDir, ENGINE_STATE_DIRECTORY),
      save: (state) => {
        if (closed) return new Promise<void>(() => undefined);
        const written = write(state);
        const settled = written.then(
          () => undefined,
          () => undefined,
        );
        writing.add(settled);
        void settled.then(() => writing.delete(settled));
        return written;
      },
      close: async () => {
        closed = true;
        await Promise.all(writing);
        await lock.release();
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
