import { describe, expect, it } from "vitest";
import { TEST_DURABLE_IDENTITY } from "../../../test/helpers/durable-identity.js";
import { commandResult, withCommandRecord } from "./command-journal.js";
import { durableStateFile, journalFileFields, readJournalFile } from "./command-journal-file.js";
import { type CommandRecord, type DurableState, initialDurableState } from "./durable-state.js";
import { parseDurableState } from "./parse-durable-state.js";

const base = initialDurableState(TEST_DURABLE_IDENTITY, "v", "d");
const subject = (commandId: string, controllerSeq: number, type: string) => ({
  commandId,
  controllerSeq,
  type,
});
const suspend = subject("suspend", 3, "runner.suspend");
const suspended = commandResult(suspend, "completed", "command applied", { status: "completed" });
const prepare = subject("prepare", 1, "run.prepare");
const open = subject("open", 2, "session.open");
const pendingSuspend: CommandRecord = { ...suspend, fingerprint: "f3", status: "pending", result: null };
const records: readonly CommandRecord[] = [
  {
    ...prepare,
    fingerprint: "f1",
    status: "done",
    result: commandResult(prepare, "completed", "command applied", null),
  },
  {
    ...open,
    fingerprint: "f2",
    status: "indeterminate",
    result: commandResult(open, "indeterminate", "m", null),
  },
  pendingSuspend,
];
const journalled = (list: readonly CommandRecord[]): DurableState =>
  list.reduce((state, record) => withCommandRecord(state, record), base);

describe("the command journal in runner-state.json", () => {
  it("holds each result as sent and upstream's digest where the server reads them, the rest beside", () => {
    const done = journalled([
      ...records.slice(0, 2),
      { ...pendingSuspend, status: "done", result: suspended },
    ]);
    const file = durableStateFile(done);
    expect(file.processedCommands).toEqual({
      prepare: records[0]?.result,
      open: records[1]?.result,
      suspend: suspended,
    });
    expect(file.processedCommandFingerprints).toEqual({ prepare: "f1", open: "f2", suspend: "f3" });
    expect(file.commandJournal).toEqual({
      prepare: { controllerSeq: 1, type: "run.prepare", status: "done" },
      open: { controllerSeq: 2, type: "session.open", status: "indeterminate" },
      suspend: { controllerSeq: 3, type: "runner.suspend", status: "done" },
    });
    // In upstream's order: the receipts, then their digests.
    const keys = Object.keys(file);
    expect(keys.indexOf("processedCommandFingerprints")).toBe(keys.indexOf("processedCommands") + 1);
    const read = parseDurableState(JSON.stringify(file), TEST_DURABLE_IDENTITY);
    expect(read).toEqual(done);
    expect(Object.keys(read)).toEqual(Object.keys(base));
  });

  it("writes no receipt for a command still pending (none was sent)", () => {
    const fields = journalFileFields(journalled(records).processedCommands);
    expect(Object.keys(fields.processedCommands)).toEqual(["prepare", "open"]);
    expect(fields.processedCommandFingerprints.suspend).toBe("f3");
    expect(fields.commandJournal.suspend).toEqual({
      controllerSeq: 3,
      type: "runner.suspend",
      status: "pending",
    });
  });

  it("reads a journal written before 2026-12-07 (whole records), its fingerprints kept as taken", () => {
    const earlier = Object.fromEntries(records.map((record) => [record.commandId, record]));
    const read = readJournalFile({ processedCommands: earlier });
    expect(read).toEqual({
      records: Object.fromEntries(
        records.map((record) => [record.commandId, { ...record, fingerprintOf: "received" }]),
      ),
    });
    // Written again in the current shape: no upstream digest claimed for a fingerprint of another form.
    const fields = journalFileFields("records" in read ? read.records : {});
    expect(fields.processedCommandFingerprints).toEqual({});
    expect(fields.commandJournal.prepare).toEqual({
      controllerSeq: 1,
      type: "run.prepare",
      status: "done",
      receivedFingerprint: "f1",
    });
    expect(readJournalFile({ ...fields })).toEqual(read);
  });

  it("keeps a __proto__ commandId a key, both ways", () => {
    const odd = journalled([{ ...pendingSuspend, commandId: "__proto__" }]);
    const text = JSON.stringify(durableStateFile(odd));
    expect(text).toContain('"commandJournal":{"__proto__":');
    expect(Object.hasOwn(parseDurableState(text, TEST_DURABLE_IDENTITY).processedCommands, "__proto__")).toBe(
      true,
    );
  });

  it.each<[string, (fields: Fields) => void]>([
    [
      "a receipt of another command",
      (f) => {
        f.processedCommands.prepare = suspended;
      },
    ],
    [
      "a receipt for a pending command",
      (f) => {
        f.processedCommands.suspend = suspended;
      },
    ],
    ["no receipt for a done command", (f) => delete f.processedCommands.prepare],
    ["no fingerprint", (f) => delete f.processedCommandFingerprints.prepare],
    [
      "two fingerprints",
      (f) => {
        f.commandJournal.prepare = { ...f.commandJournal.prepare, receivedFingerprint: "x" };
      },
    ],
    [
      "an unknown status",
      (f) => {
        f.commandJournal.prepare = { ...f.commandJournal.prepare, status: "done!" };
      },
    ],
    [
      "a receipt of another type",
      (f) => {
        f.processedCommands.prepare = { ...receiptOf(f, "prepare"), commandType: "session.open" };
      },
    ],
    [
      "a receipt of another seq",
      (f) => {
        f.processedCommands.prepare = { ...receiptOf(f, "prepare"), controllerSeq: 2 };
      },
    ],
    [
      "a receipt of no result status",
      (f) => {
        f.processedCommands.prepare = { ...receiptOf(f, "prepare"), status: "done" };
      },
    ],
    [
      "an earlier whole record beside commandJournal (a mixed-shape file)",
      (f) => {
        f.processedCommands.prepare = records[0];
      },
    ],
    [
      "a receipt not journalled",
      (f) => {
        f.processedCommands.other = { commandId: "other" };
      },
    ],
    [
      "a digest not journalled",
      (f) => {
        f.processedCommandFingerprints.other = "x";
      },
    ],
  ])("refuses a journal with %s", (_name, damage) => {
    const file = structuredClone(durableStateFile(journalled(records))) as unknown as Fields;
    damage(file);
    expect(() => parseDurableState(JSON.stringify(file), TEST_DURABLE_IDENTITY)).toThrow(
      expect.objectContaining({ code: "ERR_RUNNER_STATE_CORRUPT" }),
    );
  });
});

const receiptOf = (fields: Fields, commandId: string) =>
  fields.processedCommands[commandId] as Record<string, unknown>;

interface Fields {
  processedCommands: Record<string, unknown>;
  processedCommandFingerprints: Record<string, unknown>;
  commandJournal: Record<string, Record<string, unknown>>;
}
