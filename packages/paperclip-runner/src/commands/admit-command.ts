import { RECEIPT_DETAILS } from "../events/receipt-details.js";
import type { JournalEntry } from "../state/journal-entry.js";

/** What the journal says of a command delivered again: its stored outcome, or that it may or may not have run. */
export interface ReplayedOutcome {
  readonly status: "accepted" | "rejected" | "indeterminate";
  readonly detail: string;
}

/** How many commands a journal holds by default (`--command-history-limit`), in local and durable mode. */
export const DEFAULT_COMMAND_HISTORY_LIMIT = 4096;

/** What to do with a well-formed command, before any run semantics are looked at. */
export type Admission =
  | { readonly kind: "new" }
  | { readonly kind: "duplicate"; readonly original: ReplayedOutcome }
  | { readonly kind: "rejected"; readonly detail: string; readonly expectedControllerSeq?: number };

/**
 * Exactly-once admission. The journal is consulted before the seq, so a repeated
 * command (a controller retrying after a restart) is answered from the journal
 * even though its seq is in the past. The journal holds at most `historyLimit`
 * commands, as upstream's `--command-history-limit` bounds its history.
 */
export function admitCommand(
  command: { readonly commandId: string; readonly controllerSeq: number },
  fingerprint: string,
  journalled: JournalEntry | undefined,
  lastControllerSeq: number,
  journalSize: number,
  historyLimit: number,
): Admission {
  if (journalled !== undefined) {
    if (journalled.fingerprint !== fingerprint) return { kind: "rejected", detail: RECEIPT_DETAILS.reusedId };
    return { kind: "duplicate", original: storedOutcome(journalled) };
  }
  const expected = lastControllerSeq + 1;
  if (command.controllerSeq !== expected) {
    return { kind: "rejected", detail: RECEIPT_DETAILS.notContiguous, expectedControllerSeq: expected };
  }
  if (journalSize >= Math.max(1, historyLimit))
    return { kind: "rejected", detail: RECEIPT_DETAILS.historyFull };
  return { kind: "new" };
}

function storedOutcome(entry: JournalEntry): ReplayedOutcome {
  if (entry.status === "done" && entry.outcome !== null) return entry.outcome;
  // A pending entry seen by admission belongs to a previous daemon (commands are applied one at a time).
  return { status: "indeterminate", detail: RECEIPT_DETAILS.indeterminate };
}
