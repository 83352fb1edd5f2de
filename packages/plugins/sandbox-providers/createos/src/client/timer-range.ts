/**
 * The longest delay a Node timer holds (2^31-1 ms, about 24.8 days). A timer given more fires
 * after 1 ms instead, with a `TimeoutOverflowWarning`; the Paperclip host clamps its own RPC
 * waits to this value (`plugin-worker-manager.js`, `resolveRpcCallTimeoutMs`).
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** `ms` as a timer can wait it: longer deadlines wait as long as a timer can. */
export function timerRangeMs(ms: number): number {
  return Math.min(ms, MAX_TIMER_MS);
}
