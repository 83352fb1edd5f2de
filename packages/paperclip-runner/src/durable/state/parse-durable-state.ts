import { RunnerError } from "@paperclipai/errors";
import { BINDING_MISMATCH_MESSAGE } from "../../state/parse-runner-state.js";
import { type DurableIdentity, IDENTITY_KEYS } from "../durable-identity.js";
import { readJournalFile } from "./command-journal-file.js";
import { DURABLE_STATE_SCHEMA, type DurableState } from "./durable-state.js";
import { readTerminalDelivery } from "./terminal-delivery.js";

/**
 * Checks a durable state file read from disk. It is refused, never repaired:
 * guessing could run a command twice or lose an event. A file of another run
 * (any identity field differs) is `ERR_RUNNER_STATE_BINDING_MISMATCH`.
 */
export function parseDurableState(text: string, identity: DurableIdentity): DurableState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw corrupt("it is not JSON");
  }
  if (!isObject(value) || value.schema !== DURABLE_STATE_SCHEMA) {
    throw corrupt(`its schema is not ${DURABLE_STATE_SCHEMA}`);
  }
  const mismatched = IDENTITY_KEYS.filter((key) => value[key] !== identity[key]);
  if (mismatched.length > 0) {
    throw new RunnerError("ERR_RUNNER_STATE_BINDING_MISMATCH", BINDING_MISMATCH_MESSAGE, {
      details: { mismatched },
    });
  }
  for (const key of [
    "nextSourceSeq",
    "ackedSourceSeq",
    "outboxBytes",
    "lastControllerCommandSeq",
    "engineEventSeq",
    "engineCommandSeq",
    "restarts",
  ] as const) {
    if (!Number.isSafeInteger(value[key]) || (value[key] as number) < 0)
      throw corrupt(`${key} is not a count`);
  }
  if ((value.nextSourceSeq as number) < 1) throw corrupt("nextSourceSeq is not a count");
  if (!Array.isArray(value.outbox)) throw corrupt("outbox is not an array");
  for (const entry of value.outbox) {
    if (!isObject(entry) || !Number.isSafeInteger(entry.sourceSeq) || !isObject(entry.envelope)) {
      throw corrupt("an outbox entry is malformed");
    }
  }
  // The outbox is exactly the events after the acknowledged one, up to the last produced: a resend
  // with a hole, or a cursor past what was produced, would have the server commit the wrong seqs.
  const acked = value.ackedSourceSeq as number;
  const next = value.nextSourceSeq as number;
  if (acked > next - 1) throw corrupt("ackedSourceSeq is past the last event produced");
  const seqs = value.outbox.map((entry) => (entry as { sourceSeq: number }).sourceSeq);
  if (seqs.length !== next - 1 - acked || seqs.some((seq, index) => seq !== acked + 1 + index)) {
    throw corrupt("the outbox is not the events after ackedSourceSeq");
  }
  const journal = readJournalFile(value);
  if ("reason" in journal) throw corrupt(journal.reason);
  const delivery = readTerminalDelivery(value.pendingTerminalDelivery);
  if (!delivery.ok) throw corrupt(delivery.reason);
  // The journal's file fields are read into its records (written back in their current shape).
  const { processedCommandFingerprints: _fingerprints, commandJournal: _journal, ...rest } = value;
  return {
    ...rest,
    processedCommands: journal.records,
    pendingTerminalDelivery: delivery.fence,
  } as unknown as DurableState;
}

function corrupt(reason: string): RunnerError {
  return new RunnerError("ERR_RUNNER_STATE_CORRUPT", `durable state file is not valid: ${reason}`, {
    details: { reason },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
