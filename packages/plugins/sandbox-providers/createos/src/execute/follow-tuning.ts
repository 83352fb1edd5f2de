/** How the output follower reconnects, watches for stalls and probes for completeness. */
export interface FollowTuning {
  /** Failed reconnects tolerated per outage; new output (or a connection alive for a whole stall window) ends an outage (default 6). */
  readonly reconnectAttempts: number;
  /**
   * No byte for this long aborts the connection and resumes from the cursor (default 15 s, a few
   * heartbeats); so does no complete frame for four times as long while bytes still arrive.
   */
  readonly stallTimeoutMs: number;
  /** How long `wait` may block when a stream ends without an exit frame (default 1 s). */
  readonly waitProbeMs: number;
  /**
   * How long the `wait` sent with the first connect may block (default 30 s): a command that
   * exits sooner has its completeness evidence without a round trip after its exit frame.
   */
  readonly earlyWaitMs: number;
  /** Longest NDJSON frame accepted (default 8 MiB). */
  readonly maxFrameBytes: number;
}

export const DEFAULT_FOLLOW_TUNING: FollowTuning = {
  reconnectAttempts: 6,
  stallTimeoutMs: 15_000,
  waitProbeMs: 1_000,
  earlyWaitMs: 30_000,
  maxFrameBytes: 8 * 1024 * 1024,
};
