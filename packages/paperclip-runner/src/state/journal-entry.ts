/** What a journalled command's receipt said, kept to answer a repeated delivery the same way. */
export interface StoredOutcome {
  readonly status: "accepted" | "rejected";
  readonly detail: string;
}

/**
 * One journalled command. `pending` is written before the command's effect starts,
 * `done` with its outcome after; a `pending` entry found on start means the daemon
 * died during the effect, and it becomes `indeterminate` for good.
 */
export interface JournalEntry {
  readonly commandId: string;
  readonly controllerSeq: number;
  readonly type: string;
  /** SHA-256 of the canonical command JSON (every field of the command, `issuedAt` included). */
  readonly fingerprint: string;
  readonly status: "pending" | "done" | "indeterminate";
  readonly outcome: StoredOutcome | null;
}
