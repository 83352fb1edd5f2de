import type { PrpEvent } from "../events/prp-event.js";
import type { ProcessIdentity } from "../harness/process-identity.js";
import { INITIAL_RUN_FACTS, type RunFacts } from "../local/run-facts.js";
import type { JournalEntry } from "./journal-entry.js";

export const STATE_FILE_SCHEMA = "paperclip-runner/runner-state/v3";
export const STATE_FILE_NAME = "runner-state.json";

/** The identities a state file belongs to; a daemon started for another run must not adopt it. */
export interface StateBinding {
  readonly runId: string;
  readonly sessionId: string;
  readonly runnerId: string;
}

/** Everything the daemon needs to resume a run exactly once: the whole `runner-state.json`. */
export interface RunnerState {
  readonly schema: typeof STATE_FILE_SCHEMA;
  readonly binding: StateBinding;
  /** The seq the next event gets; events are numbered from 1, with no gap, across restarts. */
  readonly nextEventSeq: number;
  /** The highest seq the controller acknowledged; the outbox holds only later events. */
  readonly ackedSeq: number;
  readonly lastControllerSeq: number;
  /** Appended in place by `appendEvent`; replaced by `acknowledgeEvents`. */
  readonly outbox: PrpEvent[];
  /** Set in place by the ledger (`setJournalEntry`): copying it for every command would make a long run quadratic. */
  readonly journal: Record<string, JournalEntry>;
  readonly run: RunFacts;
  /** The live harness, so a restarted daemon can kill one its SIGKILLed predecessor left behind. */
  readonly harness: ProcessIdentity | null;
  /** How many times a daemon resumed this state. */
  readonly restarts: number;
}

export function initialRunnerState(binding: StateBinding): RunnerState {
  return {
    schema: STATE_FILE_SCHEMA,
    binding,
    nextEventSeq: 1,
    ackedSeq: 0,
    lastControllerSeq: 0,
    outbox: [],
    journal: {},
    run: INITIAL_RUN_FACTS,
    harness: null,
    restarts: 0,
  };
}
