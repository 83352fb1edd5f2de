/**
 * The reconnect budget counts one outage: failed or fruitless connections in a row. What
 * ends an outage, and what counts as a failure, are decided here.
 */
export interface ConnectionReport {
  /** The cursor moved on this connection: new output was accepted. */
  readonly advanced: boolean;
  /** From the headers to the last complete frame received; 0 when none arrived. */
  readonly aliveMs: number;
  /** The watchdog cut the connection for silence. */
  readonly stalled: boolean;
}

export interface OutagePolicy {
  readonly stallTimeoutMs: number;
  /** The server has sent at least one heartbeat on some connection of this process. */
  readonly heartbeatsSeen: boolean;
}

/**
 * New output ends the outage. So does a connection that stayed demonstrably alive for a
 * whole stall window (a proxy that cuts long idle streams costs a reconnect, not the
 * budget). Heartbeats alone on a short connection, or replayed duplicates, are not
 * progress: a server that keeps answering them and closing must not loop forever.
 */
export function endsOutage(report: ConnectionReport, policy: OutagePolicy): boolean {
  return report.advanced || report.aliveMs >= policy.stallTimeoutMs;
}

/**
 * A stall counts against the budget only on a server known to send heartbeats: without
 * them, silence cannot tell a dead connection from a quiet process, so the plugin keeps
 * resuming from the cursor (bounded by the command's deadline) instead of failing.
 */
export function countsAgainstBudget(report: ConnectionReport, policy: OutagePolicy): boolean {
  return !(report.stalled && !policy.heartbeatsSeen);
}
