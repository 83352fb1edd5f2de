import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { JOURNAL_FILE_NAME } from "../src/state/journal-file.js";
import { parseJournal } from "../src/state/parse-journal.js";
import type { StateDelta } from "../src/state/state-delta.js";
import { turnCompleted } from "./helpers/local-steps.js";
import { builtinHarnessArgs, Controller, writeScript } from "./local-controller.js";

const TURNS = ["c3", "c4", "c5"];

/** The journal's records (each one `fdatasync`), the header left out. */
function journalRecords(stateDir: string): StateDelta[] {
  return [...parseJournal(readFileSync(join(stateDir, JOURNAL_FILE_NAME), "utf8")).records];
}

const entriesOf = (record: StateDelta) => record.journal.map((entry) => [entry.commandId, entry.status]);
const eventTypesOf = (record: StateDelta) => record.events.map((event) => event.eventType);

// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
describe("a --state-dir turn's journal records", { timeout: 60_000 }, () => {
  it("journals the turn `pending` alone, then the harness's two events of the turn in one record", async () => {
    const dir = tempDirForTest("runner-turn-records-");
    const stateDir = join(dir, "state");
    const script = writeScript(dir, {
      steps: [{ ready: {} }],
      on: {
        "turn.start": [
          { event: { eventType: "item.started", turnId: "{{commandId}}" } },
          { event: { eventType: "turn.completed", turnId: "{{commandId}}" } },
        ],
      },
    });
    const controller = new Controller(builtinHarnessArgs(script, ["--state-dir", stateDir]));
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    // Every command is answered before the next is sent, so no record carries another command's entry.
    await controller.waitForReceipt("c2");
    for (const turn of TURNS) {
      controller.send("turn.start", turn);
      await turnCompleted(controller, turn);
      await controller.waitForReceipt(turn);
    }
    controller.send("runner.shutdown", "c6");
    await controller.waitForEvent("run.terminal");
    expect((await controller.exited).code).toBe(0);

    const records = journalRecords(stateDir);
    for (const turn of TURNS) {
      const ofTurn = records.filter(
        (record) =>
          record.journal.some((entry) => entry.commandId === turn) ||
          record.events.some((event) => event.turnId === turn),
      );
      // Durable before it is forwarded: its `pending` entry and `turn.submitted`, in a record of their own.
      expect(entriesOf(ofTurn[0] as StateDelta)).toEqual([[turn, "pending"]]);
      expect(eventTypesOf(ofTurn[0] as StateDelta)).toEqual(["turn.submitted"]);
      // The harness writes its two events at once: they are committed together, with one fdatasync.
      const answered = ofTurn.filter((record) => record.events.some((event) => event.turnId === turn));
      expect(answered.map(eventTypesOf)).toEqual([["item.started", "turn.completed"]]);
    }
  });
});
