// The server transport's option for a turn started on a resumed thread. Written for this repository.

/**
 * Options for `resume` where the driver reads the resumed thread (`thread/read`) before the next
 * turn: both runners then start that turn well under a second, and upstream's runner never starts
 * it after a kill, a SIGTERM or a suspend with a call pending (it commits `turn_binding_mismatch`
 * and the turn's `turn.failed` within a second: Codex's replayed usage). The server's transport
 * waits 30 s by default for a turn's provider identity before it fails the turn/start with "runnerd
 * did not report the provider turn identity"; its own `turnStartTimeoutMs` shortens that wait,
 * the outcome and the committed events are the same.
 */
export const RESUMED_THREAD_TURN_START = { turnStartTimeoutMs: 10_000 };
