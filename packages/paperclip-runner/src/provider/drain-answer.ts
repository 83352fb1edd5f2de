import type { ExecutorContext } from "./executor-context.js";

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
  /** The last command closed a session, not right behind the one that closed it (`closeRetains`). */
  readonly closedByLastCommand: boolean;
  /** This drain committed facts a provider restart held. */
  readonly releasedOnThisDrain: boolean;
  /**
   * A session.open found Codex running and no turn or goal change came since, or a refused goal
   * set committed held facts (`releasedByRefusal`); the session is not closed.
   */
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

/**
 * What the last command the executor handled closed, as upstream's runner's drain answers tell it
 * apart (read off its binary's answers, not its code): `nothing` (or a drain answered since),
 * `open-session` (an accepted session.close or session.destroy of a session not closed),
 * `closed-session` (one of a session already closed), `behind-the-close` (one of a session already
 * closed, right behind the one that closed it). A drain right behind answers retained for the
 * middle two.
 */
export type LastClose = "nothing" | "open-session" | "closed-session" | "behind-the-close";

/** Pure: what a command left closed, given what the one before it left (`closed`: an accepted close or destroy). */
export function nextLastClose(previous: LastClose, closed: boolean, openBefore: boolean): LastClose {
  if (!closed) return "nothing";
  if (openBefore) return "open-session";
  return previous === "open-session" ? "behind-the-close" : "closed-session";
}

/** Pure: a drain right behind the command that left `last` answers events retained. */
export function closeRetains(last: LastClose): boolean {
  return last === "open-session" || last === "closed-session";
}

/** The executor's marks the drain answer reads: what the last command closed, the drains in a row. */
export class DrainMarks {
  private lastClose: LastClose = "nothing";
  /** The drains in a row up to the command being handled (0 once another command comes). */
  private drainsInARow = 0;

  /** Before any command durable mode handles, drains included. */
  before(commandType: string): void {
    this.drainsInARow = commandType === "runner.drain" ? this.drainsInARow + 1 : 0;
    // Answered by durable mode, not the executor: they close nothing.
    if (commandType === "runner.suspend" || commandType === "runner.shutdown") this.lastClose = "nothing";
  }

  /** After the effect of a command the executor handled (`accepted`: its outcome's status). */
  handled(commandType: string, accepted: boolean, openBefore: boolean): void {
    const closed = (commandType === "session.close" || commandType === "session.destroy") && accepted;
    this.lastClose = nextLastClose(this.lastClose, closed, openBefore);
  }

  /**
   * A command's answer is sent. Behind a drain's, the close it answered for is behind too, and the
   * drains in a row that committed what a reopen retained leave it retained no more.
   */
  answered(
    commandType: string,
    ctx: Pick<ExecutorContext, "reopenedWithoutTurn" | "releasedByRefusal">,
  ): void {
    if (commandType !== "runner.drain") return;
    this.lastClose = "nothing";
    if (reopenDrained(this.drainsInARow)) {
      ctx.reopenedWithoutTurn = false;
      ctx.releasedByRefusal = false;
    }
  }

  /** Whether a drain answers events retained (`answersRetained`), besides durable mode's outbox. */
  retained(ctx: ExecutorContext, releasedOnThisDrain: boolean): boolean {
    return answersRetained({
      startupHeld: ctx.deferredStartup !== null,
      closedByLastCommand: closeRetains(this.lastClose),
      releasedOnThisDrain,
      reopenedWithoutTurn:
        (ctx.reopenedWithoutTurn || ctx.releasedByRefusal) && ctx.state().lifecycle !== "closed",
      drainsInARow: this.drainsInARow,
    });
  }
}
