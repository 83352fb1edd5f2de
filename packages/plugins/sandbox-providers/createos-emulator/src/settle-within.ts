/**
 * What `promise` settles to, or `fallback` once `ms` have passed or `signal` has aborted,
 * whichever comes first. Nothing is left behind: the timer and the abort listener are gone
 * as soon as it settles (a promise-based delay would keep its timer to the end, and an
 * aborted one throws an AbortError, stack trace and all).
 */
export function settleWithin<T, F>(
  promise: Promise<T>,
  ms: number,
  fallback: F,
  signal?: AbortSignal,
): Promise<T | F> {
  if (signal?.aborted) return Promise.resolve(fallback);
  let timer: NodeJS.Timeout | undefined;
  let onAbort = (): void => {};
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    onAbort = () => resolve(fallback);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise, late]).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  });
}
