import { describe, expect, it } from "vitest";
import type { JournalEntry } from "../state/journal-entry.js";
import { admitCommand } from "./admit-command.js";

const entry = (status: JournalEntry["status"]): JournalEntry => ({
  commandId: "c1",
  controllerSeq: 1,
  type: "run.prepare",
  fingerprint: "f1",
  status,
  outcome: status === "done" ? { status: "accepted", detail: "command applied" } : null,
});

describe("admitCommand", () => {
  it("admits the next contiguous seq", () => {
    expect(admitCommand({ commandId: "c2", controllerSeq: 2 }, "f2", undefined, 1, 1, 4096)).toEqual({
      kind: "new",
    });
  });

  it("rejects a gap or a step back, naming the expected seq", () => {
    for (const seq of [1, 3, 7]) {
      expect(admitCommand({ commandId: "c2", controllerSeq: seq }, "f2", undefined, 1, 1, 4096)).toEqual({
        kind: "rejected",
        detail: "controllerSeq is not contiguous",
        expectedControllerSeq: 2,
      });
    }
  });

  it("replays the stored outcome of a journalled command, whatever the current seq", () => {
    expect(admitCommand({ commandId: "c1", controllerSeq: 1 }, "f1", entry("done"), 9, 9, 4096)).toEqual({
      kind: "duplicate",
      original: { status: "accepted", detail: "command applied" },
    });
  });

  it("answers a command left pending or indeterminate by a previous daemon as indeterminate", () => {
    for (const status of ["pending", "indeterminate"] as const) {
      expect(admitCommand({ commandId: "c1", controllerSeq: 1 }, "f1", entry(status), 1, 1, 4096)).toEqual({
        kind: "duplicate",
        original: {
          status: "indeterminate",
          detail: "command was in flight when the runner stopped; it is not executed again",
        },
      });
    }
  });

  it("rejects a reused id with other data, and a new command once the history is full", () => {
    expect(admitCommand({ commandId: "c1", controllerSeq: 1 }, "other", entry("done"), 1, 1, 4096)).toEqual({
      kind: "rejected",
      detail: "commandId was reused with different data",
    });
    expect(admitCommand({ commandId: "c3", controllerSeq: 3 }, "f3", undefined, 2, 2, 2)).toEqual({
      kind: "rejected",
      detail: "command history limit reached",
    });
  });
});
