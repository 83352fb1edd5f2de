import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { canonicalizeHost, formatCanonicalHost } from "./canonical-host.js";
import { stripHopByHopHeaders } from "./hop-by-hop.js";
import { pinnedLookup } from "./pinned-lookup.js";
import { DENIED_MESSAGE, type ProxyContext, reportedHost, UPSTREAM_ERROR_MESSAGE } from "./proxy-context.js";
import { writeProxyError } from "./proxy-error.js";
import type { ResolvedAddress } from "./resolve-target.js";

function upstreamRequestHeaders(rawHeaders: readonly string[], host: string): string[] {
  const headers = stripHopByHopHeaders(rawHeaders);
  const forwarded: string[] = [];
  for (let i = 0; i + 1 < headers.length; i += 2) {
    if (headers[i]!.toLowerCase() !== "host") forwarded.push(headers[i]!, headers[i + 1]!);
  }
  forwarded.push("Host", host);
  return forwarded;
}

function sendUpstream(
  context: ProxyContext,
  request: IncomingMessage,
  response: ServerResponse,
  target: URL,
  port: number,
  addresses: readonly ResolvedAddress[],
): void {
  const upstream = httpRequest({
    host: target.hostname.replace(/^\[|\]$/g, ""),
    port,
    method: request.method ?? "GET",
    path: `${target.pathname}${target.search}`,
    headers: upstreamRequestHeaders(request.rawHeaders, target.host),
    setHost: false,
    agent: context.agent,
    lookup: pinnedLookup(addresses),
    timeout: context.limits.tunnelIdleMs,
  });
  upstream.on("timeout", () => upstream.destroy(new Error("upstream idle timeout")));
  upstream.on("error", () => {
    if (response.headersSent) response.destroy();
    else if (!response.destroyed) writeProxyError(response, 502, "upstream_error", UPSTREAM_ERROR_MESSAGE);
  });
  upstream.on("response", (upstreamResponse) => {
    upstreamResponse.on("error", () => response.destroy());
    response.writeHead(
      upstreamResponse.statusCode ?? 502,
      upstreamResponse.statusMessage,
      stripHopByHopHeaders(upstreamResponse.rawHeaders),
    );
    upstreamResponse.pipe(response);
  });
  response.on("close", () => {
    if (!response.writableFinished) upstream.destroy();
  });
  request.pipe(upstream);
}

/** Serves one plain-HTTP proxy request (absolute-form request-target). */
export function forwardHttpRequest(
  context: ProxyContext,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  let target: URL;
  try {
    target = new URL(request.url ?? "");
  } catch {
    context.record({ decision: "deny", host: "", port: 0, reason: "invalid_request_url" });
    writeProxyError(
      response,
      400,
      "invalid_request_url",
      "Paperclip sandbox proxy requires an absolute request URL.",
    );
    return;
  }
  if (target.protocol !== "http:") {
    const port = Number(target.port || (target.protocol === "https:" ? "443" : "0"));
    context.record({
      decision: "deny",
      host: reportedHost(target.hostname),
      port,
      reason: "https_requires_connect",
    });
    writeProxyError(
      response,
      400,
      "https_requires_connect",
      "HTTPS targets must use CONNECT through the Paperclip sandbox proxy.",
    );
    return;
  }
  const host = canonicalizeHost(target.hostname);
  const port = Number(target.port || "80");
  if (!host || port === 0) {
    const reason = host ? "invalid_port" : "invalid_target";
    context.record({ decision: "deny", host: reportedHost(target.hostname), port, reason });
    writeProxyError(response, 403, "network_target_denied", DENIED_MESSAGE, reason);
    return;
  }
  const label = formatCanonicalHost(host);
  void context.decide(host, port).then((verdict) => {
    context.record({ decision: verdict.decision, host: label, port, reason: verdict.reason });
    if (response.destroyed) return;
    if (verdict.decision === "allow") {
      sendUpstream(context, request, response, target, port, verdict.addresses);
    } else if (verdict.failure === "lookup") {
      writeProxyError(response, 502, "upstream_error", UPSTREAM_ERROR_MESSAGE, verdict.reason);
    } else {
      writeProxyError(response, 403, "network_target_denied", DENIED_MESSAGE, verdict.reason);
    }
  });
}
