import type { CreateosRequest } from "./createos-client.js";
import { ACCEPT_ENCODING } from "./reply-encoding.js";

/** How a reply is taken: a JSON envelope, bytes in memory, a download stream or an NDJSON stream. */
export type BodyMode = "json" | "bytes" | "download" | "stream";

/** What each body mode asks for; errors come as JSON in every case. */
export const ACCEPT: Readonly<Record<BodyMode, string>> = {
  json: "application/json",
  bytes: "application/octet-stream, application/json;q=0.5",
  download: "application/octet-stream, application/json;q=0.5",
  stream: "application/x-ndjson, application/json;q=0.5",
};

export interface RequestPayload {
  readonly headers: Record<string, string>;
  /** `undefined` without a body, or when the body is streamed (`request.upload`). */
  readonly body: string | Uint8Array | undefined;
}

/** The headers (the key on every call) and the in-memory body of a request. */
export function requestPayload(
  apiKey: string,
  request: Pick<CreateosRequest, "json" | "bytes" | "text" | "upload">,
  mode: BodyMode,
): RequestPayload {
  const headers: Record<string, string> = {
    "X-Api-Key": apiKey,
    Accept: ACCEPT[mode],
    "Accept-Encoding": ACCEPT_ENCODING,
  };
  if (request.json !== undefined) {
    headers["Content-Type"] = "application/json";
    return { headers, body: JSON.stringify(request.json) };
  }
  if (request.bytes !== undefined || request.text !== undefined || request.upload !== undefined) {
    headers["Content-Type"] = "application/octet-stream";
    return { headers, body: request.bytes ?? request.text };
  }
  return { headers, body: undefined };
}
