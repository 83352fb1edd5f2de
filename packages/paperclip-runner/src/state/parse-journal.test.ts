import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { journalHeaderLine, journalLine, parseJournal, snapshotDigest } from "./parse-journal.js";
import type { StateDelta } from "./state-delta.js";

const record = { set: { nextEventSeq: 2 }, journal: [], events: [] };
const base = snapshotDigest("snapshot\n");
const header = journalHeaderLine(base);
/** A journal as version 1 wrote it: bare JSON lines, no checksum, no version in the header. */
const legacyHeader = `${JSON.stringify({ base })}\n`;
const legacyLine = (value: unknown) => `${JSON.stringify(value)}\n`;

describe("parseJournal", () => {
  it("reads the header and every complete record", () => {
    const parsed = parseJournal(`${header}${journalLine(record)}${journalLine(record)}`);
    expect(parsed.base).toBe(base);
    expect(parsed.records).toEqual([record, record]);
  });

  it("frames each line as one JSON object carrying the CRC-32C of the JSON it holds", () => {
    expect(JSON.parse(header)).toEqual({
      crc32c: expect.stringMatching(/^[0-9a-f]{8}$/),
      line: { base, version: 2 },
    });
    expect(JSON.parse(journalLine(record)).line).toEqual(record);
  });

  it("still reads a journal of the format without checksums", () => {
    const parsed = parseJournal(`${legacyHeader}${legacyLine(record)}${legacyLine(record)}`);
    expect(parsed).toEqual({ base, records: [record, record] });
  });

  it("drops a record whose append never completed: a torn line or the zeros a power loss leaves", () => {
    for (const [journal, line] of [
      [header, journalLine(record)],
      [legacyHeader, legacyLine(record)],
    ] as const) {
      expect(parseJournal(`${journal}${line}${line.slice(0, 9)}`).records).toHaveLength(1);
      expect(parseJournal(`${journal}${line}${line.slice(0, -1)}`).records).toHaveLength(1);
      expect(parseJournal(`${journal}${line}\0\0\0\0`).records).toHaveLength(1);
    }
    expect(parseJournal(header.slice(0, 5))).toEqual({ base: null, records: [] });
    expect(parseJournal("")).toEqual({ base: null, records: [] });
  });

  it("refuses a committed record with any byte flipped, rather than read what it parses to", () => {
    const middle = journalLine({ set: { nextEventSeq: 3 }, journal: [], events: [] });
    for (let at = 0; at < middle.length - 1; at += 1) {
      for (const mask of [0x01, 0x20, 0x80]) {
        const flipped = Buffer.from(middle);
        flipped[at] = (flipped[at] as number) ^ mask;
        if (flipped[at] === 0x0a) continue; // a new line break: refused too, as two damaged lines
        const text = `${header}${journalLine(record)}${flipped.toString("utf8")}${journalLine(record)}`;
        const error = caughtSync(() => parseJournal(text));
        expect(error.code).toBe("ERR_RUNNER_STATE_CORRUPT");
        expect(error.message).toMatch(/^durable state file is not valid: journal line 2 /);
      }
    }
    // A digit of the JSON changed, the frame intact: only the checksum tells.
    const changed = middle.replace('"nextEventSeq":3', '"nextEventSeq":4');
    expect(caughtSync(() => parseJournal(`${header}${changed}${journalLine(record)}`)).message).toBe(
      "durable state file is not valid: journal line 1 fails its checksum",
    );
    // Nor is a damaged last line taken for a torn one: it has its line break, its append completed.
    expect(caughtSync(() => parseJournal(`${header}${changed}`)).message).toBe(
      "durable state file is not valid: journal line 1 fails its checksum",
    );
  });

  it("refuses a committed last line whose line break was damaged, rather than drop it as torn", () => {
    const last = journalLine({
      set: { nextEventSeq: 3 },
      journal: [
        {
          commandId: "c-1",
          controllerSeq: 1,
          type: "turn.start",
          fingerprint: "f",
          status: "pending",
          outcome: null,
        },
      ],
      events: [],
    });
    for (const mask of [0x01, 0x20, 0x80]) {
      const damaged = `${last.slice(0, -1)}${String.fromCharCode(0x0a ^ mask)}`;
      expect(caughtSync(() => parseJournal(`${header}${damaged}`)).message).toBe(
        "durable state file is not valid: journal line 1 is complete but its line break is damaged",
      );
      // The header alone, its line break damaged: nothing after it, but still no torn append.
      const onlyHeader = `${header.slice(0, -1)}${String.fromCharCode(0x0a ^ mask)}`;
      expect(caughtSync(() => parseJournal(onlyHeader)).code).toBe("ERR_RUNNER_STATE_CORRUPT");
    }
    // What a crash does leave is still dropped: the line without its break, then zeros or nothing.
    expect(parseJournal(`${header}${last.slice(0, -1)}`).records).toHaveLength(0);
    expect(parseJournal(`${header}${last.slice(0, -1)}\0\0`).records).toHaveLength(0);
  });

  it("refuses a damaged header instead of taking the journal for one of an older snapshot", () => {
    const damaged = header.replace(base, `${base.slice(0, -1)}${base.endsWith("0") ? "1" : "0"}`);
    expect(caughtSync(() => parseJournal(`${damaged}${journalLine(record)}`)).message).toBe(
      "durable state file is not valid: journal line 0 fails its checksum",
    );
    const unframed = `${JSON.stringify(JSON.parse(header))}`.replace("crc32c", "crc32x");
    expect(caughtSync(() => parseJournal(`${unframed}\n${journalLine(record)}`)).message).toBe(
      "durable state file is not valid: its header names no snapshot",
    );
  });

  it("refuses a version 2 journal holding a bare line, and an unknown version", () => {
    expect(caughtSync(() => parseJournal(`${header}${legacyLine(record)}`)).message).toBe(
      "durable state file is not valid: journal line 1 is not a checksummed line",
    );
    const future = JSON.parse(header) as { line: Record<string, unknown> };
    const text = (version: unknown) => journalLine({ ...future.line, version } as unknown as StateDelta);
    expect(caughtSync(() => parseJournal(text(3))).message).toBe(
      "durable state file is not valid: its header names journal version 3, not 2",
    );
  });

  it("refuses a complete line that is not a record rather than skip it", () => {
    for (const bad of [
      "{ half\n",
      "[]\n",
      legacyLine({ set: {}, journal: [{ commandId: "c1", fingerprint: "f", status: "maybe" }], events: [] }),
      legacyLine({ set: {}, journal: [], events: [{ sourceSeq: "1" }] }),
    ]) {
      const error = caughtSync(() => parseJournal(`${legacyHeader}${bad}${legacyLine(record)}`));
      expect(error.code).toBe("ERR_RUNNER_STATE_CORRUPT");
      expect(error.message).toMatch(/^durable state file is not valid: journal line 1 /);
    }
    const framedNonRecord = journalLine({ set: {}, journal: [], events: [{ sourceSeq: "1" }] } as never);
    expect(caughtSync(() => parseJournal(`${header}${framedNonRecord}`)).message).toBe(
      "durable state file is not valid: journal line 1 is not a record",
    );
    expect(caughtSync(() => parseJournal('{"other":1}\n')).message).toBe(
      "durable state file is not valid: its header names no snapshot",
    );
  });
});
