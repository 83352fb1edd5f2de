import { lstatSync } from "node:fs";
import { join } from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { atomicPrivateWrite, createPrivateDirectory, openPrivateFile } from "../private-fs/index.js";
import { wrapOsError } from "../private-fs/os-error.js";
import { checkEventCursors } from "./check-event-cursors.js";
import type { JournalEntry } from "./journal-entry.js";
import { JOURNAL_FILE_NAME, JournalFile } from "./journal-file.js";
import { parseJournal, snapshotDigest } from "./parse-journal.js";
import { parseRunnerState } from "./parse-runner-state.js";
import { type Recovery, recoverRunnerState } from "./recover-runner-state.js";
import { initialRunnerState, type RunnerState, STATE_FILE_NAME, type StateBinding } from "./runner-state.js";
import { applyStateDeltas, stateDelta } from "./state-delta.js";
import { acquireStateLock, type StateLock } from "./state-lock.js";

/** Where the run's state lives: `runner-state.json` and its journal in a private directory, or nowhere (no `--state-dir`). */
export interface StateStore {
  readonly initial: RunnerState;
  /** Set when an earlier daemon left state behind. */
  readonly recovery: Recovery | null;
  readonly durable: boolean;
  /**
   * Makes `state` durable. `journalSet` lists the journal entries set (in place)
   * since the previous save that resolved, in order; after a save that failed,
   * they are given again with the next one.
   */
  save(state: RunnerState, journalSet: readonly JournalEntry[]): Promise<void>;
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

/** Past this many journal bytes, the next commit writes a snapshot and restarts the journal. */
export const JOURNAL_COMPACT_BYTES = 1024 * 1024;

/**
 * Opens `--state-dir`: creates it 0700 (or verifies an existing one), takes the
 * one-daemon lock, and reads the previous daemon's state (the snapshot and the
 * journal records after it). The recovered state (pending commands made
 * indeterminate) is written back as a new snapshot before anything else
 * happens, so even a second crash cannot bring a pending entry back.
 *
 * A commit then appends what changed since the previous one as one journal
 * record with one `fdatasync`; commits requested while one is being written
 * share the next record (the callers' group commit). A long journal is folded
 * into a new snapshot (the atomic private write), after which the journal
 * restarts naming that snapshot: a crash between the two leaves a journal that
 * names the older snapshot, which recovery ignores, since the newer one holds it all.
 */
export async function openDurableStateStore(stateDir: string, binding: StateBinding): Promise<StateStore> {
  await createPrivateDirectory(stateDir);
  const lock: StateLock = await acquireStateLock(stateDir);
  try {
    const stored = await readStoredState(stateDir, (text) => parseRunnerState(text, binding));
    const recovery = stored === null ? null : recoverRunnerState(stored);
    const initial = recovery?.state ?? initialRunnerState(binding);
    const journal = await JournalFile.open(stateDir, await writeSnapshot(stateDir, initial));
    let saved = initial;
    const save = async (state: RunnerState, journalSet: readonly JournalEntry[]): Promise<void> => {
      const delta = stateDelta(saved, state, journalSet);
      if (delta === null) return;
      if (journal.size >= JOURNAL_COMPACT_BYTES) journal.restart(await writeSnapshot(stateDir, state));
      else journal.append(delta);
      saved = state;
    };
    const close = async () => {
      await journal.close();
      await lock.release();
    };
    return { initial, recovery, durable: true, save, close };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * The state a `--state-dir` holds (its snapshot with the journal's records
 * applied), or null when there is none. `parse` checks the snapshot; the
 * journal's records are checked as they are read.
 */
export async function readStoredState(
  stateDir: string,
  parse: (snapshotText: string) => RunnerState,
): Promise<RunnerState | null> {
  const snapshotText = await readStateFile(join(stateDir, STATE_FILE_NAME));
  if (snapshotText === null) return null;
  const snapshot = parse(snapshotText);
  const journalText = await readStateFile(join(stateDir, JOURNAL_FILE_NAME));
  const journal = journalText === null ? null : parseJournal(journalText);
  const state =
    journal !== null && journal.base === snapshotDigest(snapshotText)
      ? applyStateDeltas(snapshot, journal.records)
      : snapshot;
  // Each record is well formed on its own; only the state they add up to shows them out of order.
  checkEventCursors(state);
  return state;
}

/** Writes `state` as the snapshot; resolves with the digest a journal restarted on it names. */
async function writeSnapshot(stateDir: string, state: RunnerState): Promise<string> {
  const text = `${JSON.stringify(state)}\n`;
  await atomicPrivateWrite(stateDir, STATE_FILE_NAME, text);
  return snapshotDigest(text);
}

/** The text of a private state file (checked like any private file), or null when there is none. */
export async function readStateFile(path: string): Promise<string | null> {
  // A fresh state directory has none (a new session's runner, before its handshake): that is
  // answered by one direct `lstat`, not a thread-pool round trip. Anything there, a link
  // included, and any failure of that `lstat` go through the checked open below.
  if (absent(path)) return null;
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

/** Whether nothing at all (not even a symlink) is at `path`; false when `lstat` fails otherwise. */
function absent(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}
