import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { journalLine, parseJournal, snapshotDigest } from "./parse-journal.js";

const record = { set: { nextEventSeq: 2 }, journal: [], events: [] };
const header = journalLine({ base: snapshotDigest("snapshot\n") });

describe("parseJournal", () => {
  it("reads the header and every complete record", () => {
    const parsed = parseJournal(`${header}${journalLine(record)}${journalLine(record)}`);
    expect(parsed.base).toBe(snapshotDigest("snapshot\n"));
    expect(parsed.records).toHaveLength(2);
  });

  it("drops a record whose append never completed: a torn line or the zeros a power loss leaves", () => {
    const line = journalLine(record);
    expect(parseJournal(`${header}${line}${line.slice(0, 9)}`).records).toHaveLength(1);
    expect(parseJournal(`${header}${line}\0\0\0\0`).records).toHaveLength(1);
    expect(parseJournal(header.slice(0, 5))).toEqual({ base: null, records: [] });
    expect(parseJournal("")).toEqual({ base: null, records: [] });
  });

  it("refuses a complete line that is not a record rather than skip it", () => {
    for (const bad of [
      "{ half\n",
      "[]\n",
      `${JSON.stringify({ set: {}, journal: [{ commandId: "c1", fingerprint: "f", status: "maybe" }], events: [] })}\n`,
      `${JSON.stringify({ set: {}, journal: [], events: [{ sourceSeq: "1" }] })}\n`,
    ]) {
      const error = caughtSync(() => parseJournal(`${header}${bad}${journalLine(record)}`));
      expect(error.code).toBe("ERR_RUNNER_STATE_CORRUPT");
      expect(error.message).toMatch(/^durable state file is not valid: journal line 1 /);
    }
    expect(caughtSync(() => parseJournal('{"other":1}\n')).message).toBe(
      "durable state file is not valid: its header names no snapshot",
    );
  });
});
