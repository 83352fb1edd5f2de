import type { ServerResponse } from "node:http";

function errorBody(code: string, message: string): string {
  return `${JSON.stringify({ error: { code, message } })}\n`;
}

/**
 * Upstream's `writeProxyError`: a JSON `{"error":{"code","message"}}` body with an
 * exact Content-Length. `reason` (default: the code) goes in `X-Proxy-Error`, so a
 * client can tell a policy denial from an address block or a lookup failure.
 */
export function writeProxyError(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  reason: string = code,
): void {
  const body = errorBody(code, message);
  response
    .writeHead(status, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
      "X-Proxy-Error": reason,
    })
    .end(body);
}

/**
 * The same error as a complete raw HTTP/1.1 response, for sockets that have no
 * `ServerResponse`: CONNECT answers, parse errors, connection-limit refusals.
 * Upstream's CONNECT denial is `statusLine = "403 Forbidden"`.
 */
export function formatRawProxyError(
  statusLine: string,
  code: string,
  message: string,
  reason: string = code,
): string {
  const body = errorBody(code, message);
  return [
    `HTTP/1.1 ${statusLine}`,
    "Connection: close",
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Proxy-Error: ${reason}`,
    "",
    body,
  ].join("\r\n");
}
