import { withJournalEntry } from "./journal-lookup.js";
import type { RunnerState } from "./runner-state.js";

export interface Recovery {
  readonly state: RunnerState;
  /** Commands that were `pending` when the previous daemon stopped; now `indeterminate` for good. */
  readonly indeterminate: readonly string[];
  /** The turn that was running in the previous daemon's harness; its harness is gone, so is the turn. */
  readonly abandonedTurn: string | null;
  /** Requests of the previous harness that can no longer be resolved. */
  readonly abandonedRequests: readonly string[];
}

/**
 * Pure: what a restarted daemon makes of the state its predecessor left. A
 * pending command may or may not have had its effect, so it is never retried;
 * the turn and the requests lived in the previous harness process and end with it.
 */
export function recoverRunnerState(state: RunnerState): Recovery {
  const indeterminate: string[] = [];
  let journal = state.journal;
  for (const [commandId, entry] of Object.entries(state.journal)) {
    if (entry.status === "pending") {
      journal = withJournalEntry(journal, { ...entry, status: "indeterminate", outcome: null });
      indeterminate.push(commandId);
    }
  }
  // A session whose session.open never completed is not open: resuming it would be running that command again.
  // Likewise a run.prepare that never completed left no prepared run behind.
  const sessionDied = state.run.session !== null && indeterminate.includes(state.run.session.commandId);
  const prepareDied = state.run.phase === "preparing";
  const run = {
    ...state.run,
    session: sessionDied || prepareDied ? null : state.run.session,
    prepared: prepareDied ? false : state.run.prepared,
  };
  const resumable = run.terminal === null && run.session !== null;
  return {
    state: {
      ...state,
      journal,
      restarts: state.restarts + 1,
      run:
        run.terminal === null
          ? {
              ...run,
              phase: run.session !== null ? "session_open" : run.prepared ? "prepared" : "idle",
              turn: null,
              openRequests: [],
              stopIntent: null,
              stopCause: null,
              lingered: false,
            }
          : run,
    },
    indeterminate,
    abandonedTurn: resumable ? (run.turn?.commandId ?? null) : null,
    abandonedRequests: resumable ? [...run.openRequests] : [],
  };
}
