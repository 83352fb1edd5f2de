/**
 * At most `limit` lookups of one proxy in flight; the others wait their turn in
 * order. One run's flood of names whose name server stays silent then queues
 * behind its own lookups only.
 */
export function createLookupGate(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  };
  return async (task) => {
    if (active < limit) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      release();
    }
  };
}
