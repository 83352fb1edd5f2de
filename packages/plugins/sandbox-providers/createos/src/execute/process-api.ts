import { CreateosError, PaperclipError } from "@paperclipai/errors";
import type { CreateosClient } from "../client/createos-client.js";
import {
  invalidResponse,
  type JsonObject,
  optionalIntegerField,
  optionalStringField,
  resourceId,
} from "../client/envelope.js";
import { isSignalName } from "./output-frame.js";

/** Calls of one remote process; ids are validated before they reach a path. */
export function processPath(sandboxId: string, processId?: string): string {
  const base = `/sandboxes/${resourceId(sandboxId)}/processes`;
  return processId === undefined ? base : `${base}/${resourceId(processId)}`;
}

/**
 * Statuses saying the server has no `wait` route (an API without it, or an older one). Then
 * only the stream's own exit frame tells that the output is complete, as upstream relies on.
 */
const WAIT_UNAVAILABLE_STATUSES = [404, 405, 501];

export interface WaitReply {
  /** `false` when the server offers no `wait`: the reply carries no evidence at all. */
  readonly available: boolean;
  /** `false` when `wait` answered 408: the process still runs. */
  readonly exited: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The newest output sequence number the journal holds; `null` when the reply omits it. */
  readonly newestSeq: number | null;
}

/** What a server without `wait` (or a fetch that refuses the route) tells: nothing. */
export const WAIT_UNAVAILABLE: WaitReply = Object.freeze({
  available: false,
  exited: false,
  exitCode: null,
  signal: null,
  newestSeq: null,
});

/**
 * A `fetch` that rejects without a network failure (see the client) refuses the `wait`
 * route itself: the answer is the same every time, as from a server without `wait`.
 */
export function refusesWaitRoute(error: unknown): boolean {
  return PaperclipError.is(error, "ERR_CREATEOS_CONNECTION") && !error.retryable;
}

export async function waitForProcess(
  client: CreateosClient,
  sandboxId: string,
  processId: string,
  timeoutMs: number,
  signal: AbortSignal,
  maxAttempts?: number,
): Promise<WaitReply> {
  const reply = await client.json({
    method: "GET",
    path: `${processPath(sandboxId, processId)}/wait`,
    query: { timeout_ms: timeoutMs },
    operation: "output connection",
    idempotent: true,
    allowStatuses: [408, ...WAIT_UNAVAILABLE_STATUSES],
    signal,
    timeoutMs: timeoutMs + 30_000,
    ...(maxAttempts === undefined ? {} : { maxAttempts }),
  });
  if (WAIT_UNAVAILABLE_STATUSES.includes(reply.status)) return WAIT_UNAVAILABLE;
  if (reply.status === 408 || reply.data === null)
    return { available: true, exited: false, exitCode: null, signal: null, newestSeq: null };
  const data = reply.data;
  const output = data.output ?? {};
  if (typeof output !== "object" || output === null || Array.isArray(output)) throw invalidResponse();
  const newestSeq = optionalIntegerField(output as JsonObject, "newest_seq");
  const signalName = optionalStringField(data, "signal");
  if (signalName !== null && !isSignalName(signalName)) throw invalidResponse();
  return {
    available: true,
    exited: true,
    exitCode: optionalIntegerField(data, "exit_code"),
    signal: signalName,
    newestSeq,
  };
}

/**
 * Kills the process tree with its own fresh deadline (the command's may be spent), ahead of
 * queued calls. 404 means the process is already gone.
 */
export async function killProcessTree(
  client: CreateosClient,
  sandboxId: string,
  processId: string,
  timeoutMs: number,
): Promise<void> {
  try {
    const reply = await client.json({
      method: "DELETE",
      path: processPath(sandboxId, processId),
      query: { grace_ms: 1000 },
      operation: "process cleanup",
      idempotent: true,
      priority: "cleanup",
      allowStatuses: [404],
      signal: AbortSignal.timeout(timeoutMs),
      timeoutMs,
    });
    if (reply.status === 404) return;
    if (reply.data?.tree_exited !== true) throw invalidResponse();
  } catch (error) {
    throw new CreateosError(
      "ERR_CREATEOS_CLEANUP_FAILED",
      "CreateOS command cleanup failed; process termination is unconfirmed.",
      { cause: error, details: { processId } },
    );
  }
}
