import { setCommandRecord } from "./command-journal.js";
import type { CommandRecord, DurableState } from "./durable-state.js";

/**
 * The command journal as `runner-state.json` holds it, in upstream's runner's shape where the
 * Paperclip server reads it: `processedCommands[id]` is the `command_result` as sent (a command
 * without one yet, pending, has none) and `processedCommandFingerprints[id]` upstream's digest of
 * the command (`wireCommandFingerprint`); its maintenance delivers a suspend's receipt a runner
 * journalled and was ended before the ack only from these two. What recovery needs besides (the
 * status, pending before the effect; the type) is this runner's own `commandJournal`, beside them.
 */
export interface JournalFileFields {
  readonly processedCommands: Readonly<Record<string, Record<string, unknown>>>;
  readonly processedCommandFingerprints: Readonly<Record<string, string>>;
  readonly commandJournal: Readonly<Record<string, JournalFileEntry>>;
}

/** This runner's own part of one record. */
export interface JournalFileEntry {
  readonly controllerSeq: number;
  readonly type: string;
  readonly status: CommandRecord["status"];
  /** A record journalled before 2026-12-07: the fingerprint of the command as received (not upstream's digest). */
  readonly receivedFingerprint?: string;
}

const STATUSES: ReadonlySet<unknown> = new Set(["pending", "done", "indeterminate"]);
/** A `command_result`'s statuses (`CommandStatus`). */
const RESULT_STATUSES: ReadonlySet<unknown> = new Set(["completed", "failed", "rejected", "indeterminate"]);

/** Pure: the journal's fields as they are written. */
export function journalFileFields(records: Readonly<Record<string, CommandRecord>>): JournalFileFields {
  const all = Object.values(records);
  // fromEntries defines own properties: a `__proto__` commandId stays a key.
  return {
    processedCommands: Object.fromEntries(
      all.flatMap((record) => (record.result === null ? [] : [[record.commandId, record.result]])),
    ),
    processedCommandFingerprints: Object.fromEntries(
      all.flatMap((record) =>
        record.fingerprintOf === "received" ? [] : [[record.commandId, record.fingerprint]],
      ),
    ),
    commandJournal: Object.fromEntries(
      all.map((record) => [
        record.commandId,
        {
          controllerSeq: record.controllerSeq,
          type: record.type,
          status: record.status,
          ...(record.fingerprintOf === "received" ? { receivedFingerprint: record.fingerprint } : {}),
        },
      ]),
    ),
  };
}

/**
 * Pure: the records of a state file, or why they cannot be read (the file is refused, never
 * repaired). A file without `commandJournal` was written before 2026-12-07, when each entry of
 * `processedCommands` was the whole record (`{commandId, controllerSeq, type, fingerprint,
 * status, result}`): it is read as such, its fingerprints kept as they were taken.
 */
export function readJournalFile(
  state: Readonly<Record<string, unknown>>,
): { readonly records: Record<string, CommandRecord> } | { readonly reason: string } {
  if (!isObject(state.processedCommands)) return { reason: "processedCommands is not an object" };
  if (!Object.hasOwn(state, "commandJournal")) return readEarlierJournal(state.processedCommands);
  const { processedCommands: results, processedCommandFingerprints: fingerprints, commandJournal } = state;
  if (!isObject(fingerprints)) return { reason: "processedCommandFingerprints is not an object" };
  if (!isObject(commandJournal)) return { reason: "commandJournal is not an object" };
  const records: Record<string, CommandRecord> = {};
  for (const [commandId, entry] of Object.entries(commandJournal)) {
    const result = Object.hasOwn(results, commandId) ? results[commandId] : undefined;
    const wire = Object.hasOwn(fingerprints, commandId) ? fingerprints[commandId] : undefined;
    const received = isObject(entry) ? entry.receivedFingerprint : undefined;
    const fingerprint = received ?? wire;
    if (
      !isObject(entry) ||
      !Number.isSafeInteger(entry.controllerSeq) ||
      typeof entry.type !== "string" ||
      !STATUSES.has(entry.status) ||
      typeof fingerprint !== "string" ||
      (received !== undefined && wire !== undefined) ||
      (entry.status === "pending" ? result !== undefined : !isReceiptOf(result, commandId, entry))
    )
      return malformed(commandId);
    setCommandRecord(records, {
      commandId,
      controllerSeq: entry.controllerSeq as number,
      type: entry.type,
      fingerprint,
      ...(received === undefined ? {} : { fingerprintOf: "received" as const }),
      status: entry.status as CommandRecord["status"],
      result: (result as Record<string, unknown> | undefined) ?? null,
    });
  }
  // A receipt or digest of a command this runner did not journal would be one it cannot answer for.
  const stray = [...Object.keys(results), ...Object.keys(fingerprints)].find(
    (commandId) => !Object.hasOwn(records, commandId),
  );
  return stray === undefined ? { records } : malformed(stray);
}

function readEarlierJournal(
  entries: Readonly<Record<string, unknown>>,
): { readonly records: Record<string, CommandRecord> } | { readonly reason: string } {
  const records: Record<string, CommandRecord> = {};
  for (const [commandId, record] of Object.entries(entries)) {
    if (
      !isObject(record) ||
      record.commandId !== commandId ||
      !Number.isSafeInteger(record.controllerSeq) ||
      typeof record.type !== "string" ||
      typeof record.fingerprint !== "string" ||
      !STATUSES.has(record.status) ||
      (record.status === "pending" ? record.result !== null : !isObject(record.result))
    )
      return malformed(commandId);
    setCommandRecord(records, {
      commandId,
      controllerSeq: record.controllerSeq as number,
      type: record.type,
      fingerprint: record.fingerprint,
      fingerprintOf: "received",
      status: record.status as CommandRecord["status"],
      result: record.result as Record<string, unknown> | null,
    });
  }
  return { records };
}

const malformed = (commandId: string) => ({
  reason: `command record ${JSON.stringify(commandId).slice(0, 80)} is malformed`,
});

/**
 * Whether `result` is the `command_result` of the journalled command: its id, type and seq, a
 * result status. An entry of `processedCommands` that is not (the whole record of a file written
 * before 2026-12-07 beside a `commandJournal`, a mixed-shape file) is refused: the server would
 * read it as this command's receipt.
 */
function isReceiptOf(
  result: unknown,
  commandId: string,
  entry: Readonly<Record<string, unknown>>,
): result is Record<string, unknown> {
  return (
    isObject(result) &&
    result.commandId === commandId &&
    result.commandType === entry.type &&
    result.controllerSeq === entry.controllerSeq &&
    RESULT_STATUSES.has(result.status)
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Pure: the state as `runner-state.json` holds it, the journal's fields where `processedCommands` is. */
export function durableStateFile(state: DurableState): Record<string, unknown> {
  const file: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(state)) {
    if (key === "processedCommands") Object.assign(file, journalFileFields(state.processedCommands));
    else file[key] = value;
  }
  return file;
}
