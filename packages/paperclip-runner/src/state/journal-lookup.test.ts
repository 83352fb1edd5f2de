import { describe, expect, it } from "vitest";
import type { JournalEntry } from "./journal-entry.js";
import { journalEntry, withJournalEntry } from "./journal-lookup.js";

const entry = (commandId: string): JournalEntry => ({
  commandId,
  controllerSeq: 1,
  type: "run.prepare",
  fingerprint: "f",
  status: "done",
  outcome: { status: "accepted", detail: "command applied" },
});

describe("journal lookup", () => {
  it("finds nothing inherited for ids that name Object.prototype members", () => {
    for (const id of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      expect(journalEntry({}, id)).toBeUndefined();
    }
  });

  it("stores any id as an own entry, __proto__ included, and survives a JSON round trip", () => {
    let journal: Record<string, JournalEntry> = {};
    for (const id of ["__proto__", "constructor", "c1"]) journal = withJournalEntry(journal, entry(id));
    expect(Object.getPrototypeOf(journal)).toBe(Object.prototype);
    expect(Object.keys(journal)).toEqual(["__proto__", "constructor", "c1"]);
    expect(journalEntry(journal, "__proto__")?.commandId).toBe("__proto__");
    const parsed = JSON.parse(JSON.stringify(journal)) as Record<string, JournalEntry>;
    expect(journalEntry(parsed, "__proto__")?.commandId).toBe("__proto__");
    expect(journalEntry(withJournalEntry(parsed, entry("c2")), "__proto__")?.commandId).toBe("__proto__");
  });
});
