import type { Readable } from "node:stream";
import { type JsonObject, parseEnvelope } from "./envelope.js";
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

/** A 2xx reply read whole, in its mode. */
export function wholeResult(mode: "json" | "bytes", status: number, bytes: Buffer): AttemptResult {
  if (mode === "bytes") return { kind: "bytes", status, bytes };
  // 204 has no body by definition; every other success must carry the envelope.
  const data = status === 204 ? {} : parseEnvelope(new TextDecoder().decode(bytes));
  return { kind: "json", status, data };
}
