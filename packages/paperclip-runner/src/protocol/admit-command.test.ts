import { describe, expect, it } from "vitest";
import type { JournalEntry } from "../state/journal-entry.js";
import { admitCommand } from "./admit-command.js";

const entry = (status: JournalEntry["status"]): JournalEntry => ({
  commandId: "c1",
  controllerSeq: 1,
  type: "run.prepare",
  fingerprint: "f1",
  status,
  receipt: status === "done" ? { status: "accepted", message: "command applied" } : null,
});

describe("admitCommand", () => {
  it("admits the next contiguous seq", () => {
    expect(admitCommand({ commandId: "c2", controllerSeq: 2 }, "f2", undefined, 1)).toEqual({ kind: "new" });
  });

  it("rejects a gap or a step back, naming the expected seq", () => {
    for (const seq of [1, 3, 7]) {
      expect(admitCommand({ commandId: "c2", controllerSeq: seq }, "f2", undefined, 1)).toEqual({
        kind: "rejected",
        message: "controllerSeq is not contiguous",
        expectedControllerSeq: 2,
      });
    }
  });

  it("replays the stored receipt of a journalled command, whatever the current seq", () => {
    expect(admitCommand({ commandId: "c1", controllerSeq: 1 }, "f1", entry("done"), 9)).toEqual({
      kind: "duplicate",
      original: { status: "accepted", message: "command applied" },
    });
  });

  it("answers a command left pending or indeterminate by a previous daemon as indeterminate", () => {
    for (const status of ["pending", "indeterminate"] as const) {
      expect(admitCommand({ commandId: "c1", controllerSeq: 1 }, "f1", entry(status), 1)).toEqual({
        kind: "duplicate",
        original: {
          status: "indeterminate",
          message: "command was in flight when the runner stopped; it is not executed again",
        },
      });
    }
  });

  it("rejects a reused id with other data", () => {
    expect(admitCommand({ commandId: "c1", controllerSeq: 1 }, "other", entry("done"), 1)).toEqual({
      kind: "rejected",
      message: "commandId was reused with different data",
    });
  });
});
