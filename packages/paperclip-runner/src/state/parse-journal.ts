import { createHash } from "node:crypto";
import { corruptState, isObject } from "./parse-runner-state.js";
import type { StateDelta } from "./state-delta.js";

/** The journal's first line: which snapshot (by SHA-256 of its text) its records extend. */
export interface JournalHeader {
  readonly base: string;
}

export interface ParsedJournal {
  /** Null when not even the header reached the disk. */
  readonly base: string | null;
  readonly records: readonly StateDelta[];
}

/** Pure: the journal's base name for a snapshot's exact text. */
export function snapshotDigest(snapshotText: string): string {
  return createHash("sha256").update(snapshotText).digest("hex");
}

/** One journal line: a record is written whole with its newline, in one `write`. */
export function journalLine(value: JournalHeader | StateDelta): string {
  return `${JSON.stringify(value)}\n`;
}

/**
 * Pure: the records of a journal file's text. The text after the last newline
 * is a record whose append never completed (a crash in the write, or zeros a
 * power loss left): its commit never returned, nothing acted on it, and it is
 * dropped. A complete line that is not a record is corruption and is refused,
 * never skipped, because skipping could hide a `pending` entry.
 */
export function parseJournal(text: string): ParsedJournal {
  const end = text.lastIndexOf("\n");
  if (end < 0) return { base: null, records: [] };
  const lines = text.slice(0, end).split("\n");
  const header = parseLine(lines[0] as string, 0);
  if (typeof header.base !== "string") throw corruptState("its header names no snapshot");
  const records = lines.slice(1).map((line, index) => checkedRecord(parseLine(line, index + 1), index + 1));
  return { base: header.base, records };
}

function parseLine(line: string, index: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw corruptState(`journal line ${index} is not JSON`);
  }
  if (!isObject(value)) throw corruptState(`journal line ${index} is not an object`);
  return value;
}

/** The fields recovery relies on for at-most-once are checked as the snapshot's are. */
function checkedRecord(value: Record<string, unknown>, index: number): StateDelta {
  const malformed = () => corruptState(`journal line ${index} is not a record`);
  if (!isObject(value.set) || !Array.isArray(value.journal) || !Array.isArray(value.events))
    throw malformed();
  for (const entry of value.journal) {
    if (!isObject(entry) || typeof entry.commandId !== "string" || typeof entry.fingerprint !== "string")
      throw malformed();
    if (entry.status !== "pending" && entry.status !== "done" && entry.status !== "indeterminate")
      throw malformed();
  }
  for (const event of value.events) {
    if (!isObject(event) || !Number.isSafeInteger(event.sourceSeq)) throw malformed();
  }
  return value as unknown as StateDelta;
}
