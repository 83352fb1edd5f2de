import type { Readable } from "node:stream";
import type { JsonObject } from "./envelope.js";
import type { BodyMode } from "./request-payload.js";
import type { StreamBody } from "./stream-body.js";

/** What one attempt hands back, per body mode; `null` for an allowed non-2xx status. */
export type AttemptResult =
  | { readonly kind: "json"; readonly status: number; readonly data: JsonObject | null }
  | { readonly kind: "bytes"; readonly status: number; readonly bytes: Buffer | null }
  | { readonly kind: "download"; readonly status: number; readonly body: Readable | null }
  | { readonly kind: "stream"; readonly status: number; readonly body: StreamBody | null };

/** The result of an allowed non-2xx status: its body was discarded unread. */
export function emptyResult(mode: BodyMode, status: number): AttemptResult {
  if (mode === "json") return { kind: "json", status, data: null };
  if (mode === "bytes") return { kind: "bytes", status, bytes: null };
  if (mode === "download") return { kind: "download", status, body: null };
  return { kind: "stream", status, body: null };
}
