import { createHash } from "node:crypto";
import { crc32c } from "./crc32c.js";
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

/**
 * The journal format this runner writes, named in its header. Version 1 (no `version` in the
 * header, each line bare JSON) carried no checksum and is still read; version 2 frames every
 * line, the header included, with the CRC-32C of its JSON's UTF-8 bytes.
 */
export const JOURNAL_VERSION = 2;

/** A framed line: `{"crc32c":"<8 hex>","line":<the JSON>}`; still one JSON object per line. */
const FRAME_START = '{"crc32c":"';
const FRAME_MIDDLE = '","line":';
const CRC_AT = FRAME_START.length;
const JSON_AT = CRC_AT + 8 + FRAME_MIDDLE.length;
const HEX_8 = /^[0-9a-f]{8}$/;

/** Pure: the journal's base name for a snapshot's exact text. */
export function snapshotDigest(snapshotText: string): string {
  return createHash("sha256").update(snapshotText).digest("hex");
}

/** One journal line: a record is written whole with its newline, in one `write`. */
export function journalLine(value: StateDelta): string {
  return framed(JSON.stringify(value));
}

/** The header line of a journal restarted on the snapshot whose digest is `base`. */
export function journalHeaderLine(base: string): string {
  return framed(JSON.stringify({ base, version: JOURNAL_VERSION }));
}

function framed(json: string): string {
  const crc = crc32c(Buffer.from(json)).toString(16).padStart(8, "0");
  return `${FRAME_START}${crc}${FRAME_MIDDLE}${json}}\n`;
}

/**
 * Pure: the records of a journal file's text. The text after the last newline
 * is a record whose append never completed (a crash in the write, or zeros a
 * power loss left): its commit never returned, nothing acted on it, and it is
 * dropped. A complete line that is not a record, or whose checksum fails (a
 * flipped bit, a torn sector), is corruption and is refused, never skipped,
 * because skipping could hide a `pending` entry; the header is checked too, since
 * a damaged base name would make the whole journal look stale and be ignored.
 */
export function parseJournal(text: string): ParsedJournal {
  const end = text.lastIndexOf("\n");
  const lines = end < 0 ? [] : text.slice(0, end).split("\n");
  refuseDamagedLineEnd(text.slice(end + 1), lines.length);
  if (end < 0) return { base: null, records: [] };
  const first = lines[0] as string;
  // Only version 2 frames its lines: the header's frame is the version marker.
  const checked = first.startsWith(FRAME_START);
  const line = checked ? checkedLine : (text: string) => text;
  const header = parseLine(line(first, 0), 0);
  if (typeof header.base !== "string") throw corruptState("its header names no snapshot");
  if (checked && header.version !== JOURNAL_VERSION) {
    throw corruptState(
      `its header names journal version ${JSON.stringify(header.version)}, not ${JOURNAL_VERSION}`,
    );
  }
  const records = lines
    .slice(1)
    .map((text, index) => checkedRecord(parseLine(line(text, index + 1), index + 1), index + 1));
  return { base: header.base, records };
}

/**
 * A torn append is a prefix of one line, or that line without its end followed by the zeros a
 * power loss leaves: never a whole checksummed line followed by other bytes. That is a committed
 * line whose line break was damaged, and dropping it as torn could drop a `pending` entry.
 */
function refuseDamagedLineEnd(tail: string, index: number): void {
  if (!tail.startsWith(FRAME_START)) return;
  const close = frameEnd(tail);
  if (close === undefined || /^\0*$/.test(tail.slice(close + 1))) return;
  const frame = tail.slice(0, close + 1);
  if (!isValidFrame(frame)) return;
  throw corruptState(`journal line ${index} is complete but its line break is damaged`);
}

/** Where the frame opening `text` closes (a scan of JSON's strings and braces), if it does. */
function frameEnd(text: string): number | undefined {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === 0x5c) at += 1;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) depth += 1;
    else if ((char === 0x7d || char === 0x5d) && --depth === 0) return at;
  }
  return undefined;
}

function isValidFrame(line: string): boolean {
  try {
    checkedLine(line, 0);
    return true;
  } catch {
    return false;
  }
}

/** The JSON a framed line holds, once its checksum matches. */
function checkedLine(line: string, index: number): string {
  const crc = line.slice(CRC_AT, CRC_AT + 8);
  if (
    !line.startsWith(FRAME_START) ||
    !HEX_8.test(crc) ||
    line.slice(CRC_AT + 8, JSON_AT) !== FRAME_MIDDLE ||
    !line.endsWith("}")
  ) {
    throw corruptState(`journal line ${index} is not a checksummed line`);
  }
  const json = line.slice(JSON_AT, -1);
  if (crc32c(Buffer.from(json)) !== Number.parseInt(crc, 16)) {
    throw corruptState(`journal line ${index} fails its checksum`);
  }
  return json;
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
