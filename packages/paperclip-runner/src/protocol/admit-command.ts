import type { JournalEntry } from "../state/journal-entry.js";
import { RECEIPT_MESSAGES, type StoredReceipt } from "./command-receipt.js";

/** What to do with a well-formed command, before any run semantics are looked at. */
export type Admission =
  | { readonly kind: "new" }
  | { readonly kind: "duplicate"; readonly original: StoredReceipt }
  | { readonly kind: "rejected"; readonly message: string; readonly expectedControllerSeq?: number };

/**
 * Exactly-once admission. The journal is consulted before the seq, so a repeated
 * command (a controller retrying after a restart) is answered from the journal
 * even though its seq is in the past.
 */
export function admitCommand(
  command: { readonly commandId: string; readonly controllerSeq: number },
  fingerprint: string,
  journalled: JournalEntry | undefined,
  lastControllerSeq: number,
): Admission {
  if (journalled !== undefined) {
    if (journalled.fingerprint !== fingerprint)
      return { kind: "rejected", message: RECEIPT_MESSAGES.reusedId };
    return { kind: "duplicate", original: storedOutcome(journalled) };
  }
  const expected = lastControllerSeq + 1;
  if (command.controllerSeq !== expected) {
    return { kind: "rejected", message: RECEIPT_MESSAGES.notContiguous, expectedControllerSeq: expected };
  }
  return { kind: "new" };
}

function storedOutcome(entry: JournalEntry): StoredReceipt {
  if (entry.status === "done" && entry.receipt !== null) return entry.receipt;
  // A pending entry seen by admission belongs to a previous daemon (commands are applied one at a time).
  return { status: "indeterminate", message: RECEIPT_MESSAGES.indeterminate };
}
