/**
 * What `work` settles to, or a rejection with `signal`'s reason once it aborts first. The
 * work itself runs on (whoever holds it may await it later): its rejection is marked handled
 * here, so one that no one awaits any more is not an unhandled rejection.
 */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}
