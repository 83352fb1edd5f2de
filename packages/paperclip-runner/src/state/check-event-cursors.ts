import { corruptState } from "./parse-runner-state.js";
import type { RunnerState } from "./runner-state.js";

/**
 * Throws `ERR_RUNNER_STATE_CORRUPT` unless the stored state's event cursors agree: the outbox is
 * a run of consecutive events ending at the last one numbered (`nextEventSeq - 1`), all after
 * the acknowledged one, which is no later than the last. Every commit keeps that true (an event
 * is numbered and appended together; acks and the 4096 bound only take from the front); a
 * journal whose records were reordered or repeated, or a snapshot edited by hand, need not,
 * and a daemon resuming from it would number a new event with a seq it already sent (two
 * events, one seq: the controller's acknowledgements would then drop the wrong one).
 */
export function checkEventCursors(state: RunnerState): void {
  // A caller of readStoredState may parse the snapshot as bare JSON: the shape is checked here too.
  if (!Array.isArray(state.outbox)) throw corruptState("outbox is not an array");
  const last = state.nextEventSeq - 1;
  if (state.ackedSeq > last) throw corruptState("ackedSeq is past the last event numbered");
  const seqs = state.outbox.map((event) => (event as { sourceSeq?: unknown }).sourceSeq);
  const first = last - seqs.length + 1;
  if (seqs.some((seq, index) => seq !== first + index) || (seqs.length > 0 && first <= state.ackedSeq)) {
    throw corruptState("the outbox is not the events after ackedSeq up to nextEventSeq");
  }
}
