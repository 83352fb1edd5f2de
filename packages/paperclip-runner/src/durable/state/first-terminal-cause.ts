/**
 * What ended the run, as `runner-state.json`'s lifecycle says it: the end of the command stream
 * (`runner.shutdown`/`runner.suspend`: `stopped`, `suspended`) or the run's failure (a revocation:
 * `revoked`; anything else: `recoverable_failure`).
 */
export type TerminalCause = "stream_end" | "failure";

/**
 * Pure: the first terminal cause claimed is the one the lifecycle records. A revocation or a
 * failure that arrives while a `runner.shutdown` is being applied ends the run; the shutdown,
 * completing after it (the failure stops the harness it was waiting for), used to write `stopped`
 * over it, and a revocation arriving once the shutdown's `stopped` was durable wrote `revoked`
 * over that: which of the two the state said hung on which write came last. Each cause claims
 * before it writes the lifecycle, synchronously, and only the first claim writes it. A claim is
 * never released: a reconnect after it (the connection dropped before the shutdown's result was
 * acknowledged) continues a run that has already ended, and its welcome leaves the lifecycle alone.
 */
export class FirstTerminalCause {
  private cause: TerminalCause | null = null;

  /** Whether a terminal cause was claimed: the lifecycle names it, and nothing else writes one. */
  get isClaimed(): boolean {
    return this.cause !== null;
  }

  /** Whether `cause` may write the lifecycle: it is the first claimed (or claims again). */
  claim(cause: TerminalCause): boolean {
    this.cause ??= cause;
    return this.cause === cause;
  }
}
