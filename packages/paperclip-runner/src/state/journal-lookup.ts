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
  Object.defineProperty(next, entry.commandId, {
    value: entry,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return next;
}
