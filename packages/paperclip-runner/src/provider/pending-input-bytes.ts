/** Upstream's bound on the open OpenCode questions' size, all requests together. */
export const MAX_PENDING_INPUT_BYTES = 4 * 1024 * 1024;

/**
 * What upstream's runner adds to a request's size beyond its question set and the request the
 * proxy sent: measured with its binary (2026.916.1), not read from its source, so it stands here
 * as a number (the requests' ids, prompt and question set all counted as the proxy sent them).
 */
const PER_REQUEST_BYTES = 67;

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/**
 * Pure: the size upstream's runner counts for an open OpenCode question against its 4 MiB bound
 * (observed through both runners, bisected to the byte): the question set's compact JSON, plus
 * the whole `paperclip.runtime_request.v2` the proxy sent (which holds the set again), plus 67.
 */
export const opencodePendingBytes = (request: Record<string, unknown>): number =>
  jsonBytes(request.input) + jsonBytes(request) + PER_REQUEST_BYTES;
