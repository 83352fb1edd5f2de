/**
 * Whether the output delivered so far is all of it, from what `wait` said. Only an exited
 * process can be complete. `newest_seq` is the journal's own count; when a server leaves it
 * out, an exit frame on the stream (sent after the data it follows) is the only evidence,
 * so a stream that merely ended is replayed until one arrives.
 */
export interface WaitEvidence {
  readonly exited: boolean;
  /** `null` when the reply had no `output.newest_seq`. */
  readonly newestSeq: number | null;
}

export function isOutputComplete(wait: WaitEvidence, cursor: number, sawExitFrame: boolean): boolean {
  if (!wait.exited) return false;
  if (wait.newestSeq === null) return sawExitFrame;
  return wait.newestSeq <= cursor;
}
