/** The longest delay a Node timer takes; a longer one (or a non-finite one) fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A pending `timerAt`; `cancel` is safe to call at any time, more than once. */
export interface TimerAt {
  cancel(): void;
}

/**
 * Calls `fire` at `at` on the clock `now` reads (the wall clock unless given; a lease's lapse is
 * read on `performance.now()`), at once when it has passed, unref'd. Node fires a timer longer
 * than 2^31 - 1 ms after 1 ms (with a TimeoutOverflowWarning), so a time the server chose
 * (a lease expiry weeks away) is reached through timers of at most that length, re-armed until
 * it is due; an infinite one never fires.
 */
export function timerAt(at: number, fire: () => void, now: () => number = Date.now): TimerAt {
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    const left = at - now();
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
