/** What following one process's output has counted so far; reported in the result's metadata. */
export interface FollowStats {
  /** The seq of the last data frame delivered: the point a reconnect resumes after. */
  cursor: number;
  /** Output connections opened. */
  connections: number;
  /** Failed or incomplete connections (or completeness probes) retried from the cursor. */
  reconnects: number;
  /** Data frames at or below the cursor (replayed after a reconnect), dropped unread. */
  duplicates: number;
}
