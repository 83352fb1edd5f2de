/** The longest delay a Node timer takes; a longer one (or a non-finite one) fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A pending `timerAt`; `cancel` is safe to call at any time, more than once. */
export interface TimerAt {
  cancel(): void;
}

/**
 * Calls `fire` at `atUnixMs` (at once when it has passed), unref'd. Node fires a timer longer
 * than 2^31 - 1 ms after 1 ms (with a TimeoutOverflowWarning), so a time the server chose
 * (a lease expiry weeks away, or `1e400` read as Infinity) is reached through timers of at
 * most that length, re-armed until it is due; an infinite one never fires.
 */
export function timerAt(atUnixMs: number, fire: () => void): TimerAt {
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    const left = atUnixMs - Date.now();
    if (left > MAX_TIMER_MS) timer = setTimeout(arm, MAX_TIMER_MS);
    // NaN (no time at all) is due now, as a time already past is.
    else timer = setTimeout(fire, Number.isNaN(left) ? 0 : Math.max(left, 0));
    timer.unref();
  };
  arm();
  return {
    cancel: () => {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
