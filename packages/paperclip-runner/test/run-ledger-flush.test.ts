import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import type { ControllerCommand } from "../src/commands/controller-command.js";
import { COMMAND_SCHEMA } from "../src/commands/schemas.js";
import type { RunLedger } from "../src/local/run-ledger.js";
import { JOURNAL_FILE_NAME } from "../src/state/journal-file.js";
import { parseJournal } from "../src/state/parse-journal.js";
import type { StateDelta } from "../src/state/state-delta.js";
import { openDurableStateStore, type StateStore } from "../src/state/state-store.js";
import { recordingLedger } from "./helpers/recording-ledger.js";

const binding = { runId: "r", sessionId: "s", runnerId: "n" };
const journalLines = (stateDir: string) =>
  readFileSync(join(stateDir, JOURNAL_FILE_NAME), "utf8").split("\n").length - 1;

/** A ledger on a real state directory whose stdout writes are recorded, one entry per write. */
async function ledgerOnDisk(): Promise<{
  ledger: RunLedger;
  store: StateStore;
  stateDir: string;
  written: string[];
}> {
  const stateDir = join(tempDirForTest(), "state");
  const store = await openDurableStateStore(stateDir, binding);
  const { ledger, written } = recordingLedger(store);
  return { ledger, store, stateDir, written };
}

const eventTypes = (write: string | undefined) =>
  (write ?? "")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line).message.event.eventType);

/** Each line of one write: an event's type, or a receipt's command id. */
const messagesOf = (write: string | undefined) =>
  (write ?? "")
    .trim()
    .split("\n")
    .map((line) => {
      const message = JSON.parse(line).message;
      return message.event?.eventType ?? message.commandId;
    });

describe("the run ledger's records and writes", () => {
  it("persists a step without writing its lines, which go out with the next commit in one write", async () => {
    const { ledger, store, stateDir, written } = await ledgerOnDisk();
    ledger.emit("turn.submitted", {});
    await ledger.persist();
    // Durable (its own record), but nothing reached the controller yet.
    expect(journalLines(stateDir)).toBe(2);
    expect(written).toEqual([]);
    ledger.emit("item.started", {});
    await ledger.commit();
    expect(journalLines(stateDir)).toBe(3);
    expect(written).toHaveLength(1);
    expect(eventTypes(written[0])).toEqual(["turn.submitted", "item.started"]);
    await store.close();
  });

  it("commits output after a poll: what is produced before it shares one record and one write", async () => {
    const { ledger, store, stateDir, written } = await ledgerOnDisk();
    ledger.emit("item.started", {});
    ledger.commitAfterPoll();
    ledger.emit("turn.completed", {});
    ledger.commitAfterPoll();
    expect(journalLines(stateDir)).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    await ledger.settled();
    expect(journalLines(stateDir)).toBe(2);
    expect(written).toHaveLength(1);
    expect(eventTypes(written[0])).toEqual(["item.started", "turn.completed"]);
    await store.close();
  });

  it("commits a receipt with the harness messages read over consecutive polls: one record, one write", async () => {
    const { ledger, store, stateDir, written } = await ledgerOnDisk();
    const command: ControllerCommand = {
      schema: COMMAND_SCHEMA,
      commandId: "c1",
      controllerSeq: 1,
      type: "turn.start",
      payload: {},
    };
    ledger.journal(command, "f", "pending", null);
    ledger.emit("turn.submitted", {});
    await ledger.persist();
    expect(journalLines(stateDir)).toBe(2);
    // The command was forwarded: its receipt waits for the harness's answer.
    ledger.journal(command, "f", "done", { status: "accepted", detail: "command applied" });
    ledger.receiptSoon(command, "accepted", "command applied");
    // The harness's first message is read in one poll, its second in the next one.
    ledger.emit("item.started", {});
    ledger.commitAfterPoll();
    await new Promise((resolve) => setImmediate(resolve));
    ledger.emit("turn.completed", {});
    ledger.commitAfterPoll();
    while (journalLines(stateDir) === 2) await new Promise((resolve) => setImmediate(resolve));
    await ledger.settled();
    // Exactly two records for the command: its `pending` entry, then its `done` entry with both events.
    const { records } = parseJournal(readFileSync(join(stateDir, JOURNAL_FILE_NAME), "utf8"));
    expect(records).toHaveLength(2);
    const last = records[1] as StateDelta;
    expect(last.journal.map((entry) => [entry.commandId, entry.status])).toEqual([["c1", "done"]]);
    expect(last.events.map((event) => event.eventType)).toEqual(["item.started", "turn.completed"]);
    expect(written).toHaveLength(1);
    expect(messagesOf(written[0])).toEqual(["turn.submitted", "c1", "item.started", "turn.completed"]);
    await store.close();
  });

  it("makes a commit still waiting for its poll at teardown, and none after", async () => {
    const { ledger, store, stateDir, written } = await ledgerOnDisk();
    ledger.emit("item.started", {});
    ledger.commitAfterPoll();
    await ledger.settled();
    expect(journalLines(stateDir)).toBe(2);
    expect(written).toHaveLength(1);
    await store.close();
    // The poll's commit was folded into the teardown's: nothing writes to the closed store.
    await new Promise((resolve) => setImmediate(resolve));
    expect(journalLines(stateDir)).toBe(2);
  });
});
