/**
 * How many `runner.drain`s in a row (no other command between them) upstream's runner answers
 * `retainedEventsDrained:false` for a session.open that found Codex running (a reopen) with
 * nothing held: the first only (F,T,T,T,T behind an empty `turn.start` then `session.open`, observed
 * with its binary). Startup facts still held then are held as the reopen's and committed by the
 * same policy as a plain open's (`session-commands.ts`): F,F,F,T,T, as behind a plain open.
 */
export const REOPEN_DRAINS_RETAINED = 1;

/** What the executor knows when a drain is answered. */
export interface DrainFacts {
  /** Startup facts are still held back (a session.open's, a resume's). */
  readonly startupHeld: boolean;
  /** The last command closed the session, and the one before it had not (`closedByLastCommand`). */
  readonly closedByLastCommand: boolean;
  /** This drain committed facts a provider restart held. */
  readonly releasedOnThisDrain: boolean;
  /** A session.open found Codex running and no turn or goal change came since (the session is not closed). */
  readonly reopenedWithoutTurn: boolean;
  /** The drains in a row, this one included. */
  readonly drainsInARow: number;
}

/**
 * Pure: whether a drain answers events retained (`retainedEventsDrained:false`), besides what
 * durable mode's outbox holds. A reopen's answer converges: repeated drains with nothing between
 * them reach true, as upstream's do (the server's close repeats drains until one does).
 */
export function answersRetained(facts: DrainFacts): boolean {
  return (
    facts.startupHeld ||
    facts.closedByLastCommand ||
    facts.releasedOnThisDrain ||
    (facts.reopenedWithoutTurn && !reopenDrained(facts.drainsInARow))
  );
}

/** Pure: the drains in a row have committed what a reopen retained (it is retained no more). */
export function reopenDrained(drainsInARow: number): boolean {
  return drainsInARow > REOPEN_DRAINS_RETAINED;
}
