/** Every HTTP request a client makes, with its start and end, to count round trips. */
export function countingFetch(): { fetch: typeof fetch; spans: Array<{ start: number; end: number }> } {
  const spans: Array<{ start: number; end: number }> = [];
  return {
    spans,
    fetch: async (input, init) => {
      const span = { start: performance.now(), end: Number.POSITIVE_INFINITY };
      spans.push(span);
      const response = await fetch(input, init);
      span.end = performance.now();
      return response;
    },
  };
}

/**
 * Round trips one after another: a request that starts after every earlier one has its
 * answer (its headers) begins a new round trip; requests that overlap share one.
 */
export function sequentialRoundTrips(spans: ReadonlyArray<{ start: number; end: number }>): number {
  let trips = 0;
  let answeredBy = Number.NEGATIVE_INFINITY;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start >= answeredBy) trips += 1;
    answeredBy = Math.max(answeredBy, span.end);
  }
  return trips;
}
