import { RECEIPT_SCHEMA } from "./schemas.js";

/**
 * `indeterminate` is what a journalled `pending` command becomes when the daemon
 * died during its effect: the runner cannot know whether the effect happened, so it
 * never runs it again and says so.
 */
export type ReceiptStatus = "accepted" | "duplicate" | "rejected" | "indeterminate";

/** The answer to one command. Every command line gets exactly one. */
export interface CommandReceipt {
  readonly schema: typeof RECEIPT_SCHEMA;
  readonly runId: string;
  readonly commandId: string | null;
  readonly controllerSeq: number | null;
  readonly type: string | null;
  readonly status: ReceiptStatus;
  readonly message: string;
  /** On `controllerSeq is not contiguous`: the seq the runner expects next. */
  readonly expectedControllerSeq?: number;
  /** On `duplicate`: the stored receipt of the first delivery, replayed. */
  readonly original?: StoredReceipt;
}

/** The part of a receipt the journal keeps, to replay for a repeated command. */
export interface StoredReceipt {
  readonly status: Exclude<ReceiptStatus, "duplicate">;
  readonly message: string;
}

export const RECEIPT_MESSAGES = {
  applied: "command applied",
  duplicate: "equivalent command already applied",
  reusedId: "commandId was reused with different data",
  notContiguous: "controllerSeq is not contiguous",
  alreadyPrepared: "run is already prepared",
  indeterminate: "command was in flight when the runner stopped; it is not executed again",
  notImplemented: (type: string): string => `command ${type} is not implemented in Local runner`,
} as const;

/** The command a receipt answers, as far as the line could be read. */
export interface ReceiptSubject {
  readonly commandId: string | null;
  readonly controllerSeq: number | null;
  readonly type: string | null;
}

export function makeReceipt(
  runId: string,
  subject: ReceiptSubject,
  status: ReceiptStatus,
  message: string,
  extra: { readonly expectedControllerSeq?: number; readonly original?: StoredReceipt } = {},
): CommandReceipt {
  return {
    schema: RECEIPT_SCHEMA,
    runId,
    commandId: subject.commandId,
    controllerSeq: subject.controllerSeq,
    type: subject.type,
    status,
    message,
    ...extra,
  };
}
