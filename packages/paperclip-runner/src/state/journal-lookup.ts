import type { JournalEntry } from "./journal-entry.js";

type Journal = Readonly<Record<string, JournalEntry>>;

/**
 * The journal entry of `commandId`, own properties only: a commandId is chosen by
 * the controller, and `constructor` or `__proto__` must be a new command, not
 * something inherited from `Object.prototype`.
 */
export function journalEntry(journal: Journal, commandId: string): JournalEntry | undefined {
  return Object.hasOwn(journal, commandId) ? journal[commandId] : undefined;
}

/** The journal with `entry` set under its commandId, as an own data property whatever the id (`__proto__` too). */
export function withJournalEntry(journal: Journal, entry: JournalEntry): Record<string, JournalEntry> {
  const next: Record<string, JournalEntry> = { ...journal };
  setJournalEntry(next, entry);
  return next;
}

/** Sets `entry` in place, as `withJournalEntry` does on its copy (for a journal being rebuilt). */
export function setJournalEntry(journal: Record<string, JournalEntry>, entry: JournalEntry): void {
  Object.defineProperty(journal, entry.commandId, {
    value: entry,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
