/**
 * Events an engine commits after the command it is applying answers (`EngineOutput`'s
 * `afterAnswer`): the first such event and every event after it stay in the outbox, durable but
 * unsent, until that command's result is sent. Upstream's runner answers `turn.start` before its
 * `turn.accepted`, so a runner killed in between leaves the server's journal with the turn answered
 * (the server's native cleanup maintenance refuses a `turn.start` left pending, docs/compatibility.md);
 * committed before the answer, the events are resent by the next runner if this one is killed.
 */
export class AnswerFirst {
  /** The sourceSeq of the first event held back, or null when nothing is. */
  private heldFrom: number | null = null;

  /** An event was queued in the outbox at `sourceSeq`: held, with all after it, when `afterAnswer`. */
  queued(sourceSeq: number, afterAnswer: boolean): void {
    if (afterAnswer && this.heldFrom === null) this.heldFrom = sourceSeq;
  }

  /** Whether the event at `sourceSeq` may be sent now. */
  sendable(sourceSeq: number): boolean {
    return this.heldFrom === null || sourceSeq < this.heldFrom;
  }

  /** The command being applied was answered (or its result could not be sent): nothing is held any more. */
  answered(): void {
    this.heldFrom = null;
  }
}
