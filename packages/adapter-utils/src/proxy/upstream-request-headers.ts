import { stripHopByHopHeaders } from "./hop-by-hop.js";

/**
 * The headers of a plain-HTTP request as sent upstream: hop-by-hop headers
 * dropped, `Host` set to the target. A request that arrived with a chunked body
 * is sent chunked again, whatever its method: `Transfer-Encoding` is hop-by-hop,
 * and Node adds no framing of its own to a GET, HEAD, DELETE or OPTIONS body,
 * so the decoded body would follow the head unframed and parse upstream as a
 * second request (smuggled past this proxy's policy, `Host` rewrite and log).
 * A `Content-Length` body stays framed by its own header, which is forwarded even when
 * `Connection` names it: dropped, it left such a body unframed in the same way.
 */
export function upstreamRequestHeaders(
  rawHeaders: readonly string[],
  host: string,
  chunkedBody: boolean,
): string[] {
  const headers = stripHopByHopHeaders(rawHeaders, ["content-length"]);
  const forwarded: string[] = [];
  for (let i = 0; i + 1 < headers.length; i += 2) {
    if (headers[i]!.toLowerCase() !== "host") forwarded.push(headers[i]!, headers[i + 1]!);
  }
  forwarded.push("Host", host);
  if (chunkedBody) forwarded.push("Transfer-Encoding", "chunked");
  return forwarded;
}
