import type { StoredReceipt } from "../protocol/command-receipt.js";

/**
 * One journalled command. `pending` is written before the command's effect starts,
 * `done` with its receipt after; a `pending` entry found on start means the daemon
 * died during the effect, and it becomes `indeterminate` for good.
 */
export interface JournalEntry {
  readonly commandId: string;
  readonly controllerSeq: number;
  readonly type: string;
  /** SHA-256 of the canonical command JSON. */
  readonly fingerprint: string;
  readonly status: "pending" | "done" | "indeterminate";
  readonly receipt: StoredReceipt | null;
}
