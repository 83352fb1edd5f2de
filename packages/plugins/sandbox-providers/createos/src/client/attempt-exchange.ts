import type { AttemptScope } from "./attempt-scope.js";
import type { CreateosRequest } from "./client-types.js";
import type { RequestPayload } from "./request-payload.js";

/**
 * One attempt as a transport sees it: what to send and where, its abort wiring, and the
 * client's verdicts on what comes back, so that both transports apply one policy.
 */
export interface AttemptExchange {
  readonly request: CreateosRequest;
  readonly url: string;
  /** The headers (the key included) and the in-memory body, for the attempt's body mode. */
  readonly payload: RequestPayload;
  readonly scope: AttemptScope;
  /** Longest reply read into memory. */
  readonly maxReplyBytes: number;
  /**
   * True for a 2xx, false for a status the caller allows; any other status throws, and so
   * does a 2xx with a `Content-Encoding` (see `reply-encoding.ts`). Called once per reply,
   * before its body is read (the pacer learns from it), except for a reply read whole
   * through node:http, which never decodes it and reads at most the reply cap.
   */
  admitStatus(status: number, retryAfter: string | null, contentEncoding: string | null): boolean;
  /**
   * The coded error of a failed send or body read (`retryable` false: it would fail alike;
   * `cause`, the transport's own error, tells a connection never made).
   */
  transportError(retryable?: boolean, cause?: unknown): unknown;
}
