import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { canonicalizeHost, formatCanonicalHost } from "./canonical-host.js";
import { stripHopByHopHeaders } from "./hop-by-hop.js";
import { pinnedLookup } from "./pinned-lookup.js";
import {
  CONNECTION_LIMIT_MESSAGE,
  DENIED_MESSAGE,
  type ProxyContext,
  UPSTREAM_ERROR_MESSAGE,
} from "./proxy-context.js";
import { writeProxyError } from "./proxy-error.js";
import { reportedHost } from "./reported-host.js";
import type { RequestSlot } from "./request-slots.js";
import type { ResolvedAddress } from "./resolve-target.js";
import { upstreamRequestHeaders } from "./upstream-request-headers.js";
import { readWrittenTarget } from "./written-target.js";

/**
 * A proxy error answer. When the request body has not fully arrived the connection
 * is closed after the answer, so a client trickling a body cannot hold it open.
 */
function answerError(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  reason: string = code,
): void {
  if (response.headersSent || response.destroyed) {
    response.destroy();
    return;
  }
  if (!request.complete) response.shouldKeepAlive = false;
  writeProxyError(response, status, code, message, reason);
}

/** An HTTPS (or other non-HTTP) target sent as a plain request: recorded and answered 400, never forwarded. */
function refuseWithoutConnect(
  context: ProxyContext,
  request: IncomingMessage,
  response: ServerResponse,
  host: string,
  port: number,
): void {
  context.record({ decision: "deny", host: reportedHost(host), port, reason: "https_requires_connect" });
  answerError(
    request,
    response,
    400,
    "https_requires_connect",
    "HTTPS targets must use CONNECT through the Paperclip sandbox proxy.",
  );
}

function sendUpstream(
  context: ProxyContext,
  request: IncomingMessage,
  response: ServerResponse,
  target: URL,
  port: number,
  addresses: readonly ResolvedAddress[],
  slot: RequestSlot,
): void {
  const fail = (reason: string) =>
    answerError(request, response, 502, "upstream_error", UPSTREAM_ERROR_MESSAGE, reason);
  const upstream = httpRequest({
    host: target.hostname.replace(/^\[|\]$/g, ""),
    port,
    method: request.method ?? "GET",
    path: `${target.pathname}${target.search}`,
    // Node's parser takes any Transfer-Encoding on a request as a chunked body (or refuses it).
    headers: upstreamRequestHeaders(
      request.rawHeaders,
      target.host,
      request.headers["transfer-encoding"] !== undefined,
    ),
    setHost: false,
    agent: context.agent,
    lookup: pinnedLookup(addresses),
    // Bounds a stalled exchange either way: an upstream that never answers, a client body that never ends.
    timeout: context.limits.tunnelIdleMs,
  });
  slot.carry(upstream);
  let answered = false;
  upstream.on("timeout", () => upstream.destroy(new Error("upstream idle timeout")));
  upstream.on("error", () => fail("upstream_error"));
  // The request never asked for an upgrade, so a 101 is not something to pass on.
  upstream.on("upgrade", (_response, socket) => {
    answered = true;
    socket.destroy();
    fail("upstream_invalid_response");
  });
  upstream.on("close", () => {
    if (!answered) fail("upstream_error");
  });
  upstream.on("response", (upstreamResponse) => {
    answered = true;
    upstreamResponse.on("error", () => response.destroy());
    try {
      response.writeHead(
        upstreamResponse.statusCode ?? 502,
        upstreamResponse.statusMessage,
        stripHopByHopHeaders(upstreamResponse.rawHeaders),
      );
    } catch {
      // Node parses what it refuses to send on (status 099, a reason phrase with control
      // bytes): a hostile upstream must not be able to throw inside the host process.
      upstreamResponse.destroy();
      fail("upstream_invalid_response");
      return;
    }
    upstreamResponse.pipe(response);
  });
  response.on("close", () => {
    if (!response.writableFinished) upstream.destroy();
  });
  request.pipe(upstream);
}

/**
 * Serves one plain-HTTP proxy request (absolute-form request-target). `expectsContinue`: the
 * client waits for `100 Continue` before its body, sent only once the target is allowed.
 */
export function forwardHttpRequest(
  context: ProxyContext,
  request: IncomingMessage,
  response: ServerResponse,
  expectsContinue = false,
): void {
  const written = readWrittenTarget(request.url ?? "");
  if (written?.scheme === "http" && canonicalizeHost(written.host) === null) {
    const port = written.port ?? 80;
    context.record({ decision: "deny", host: reportedHost(written.host), port, reason: "invalid_target" });
    answerError(request, response, 403, "network_target_denied", DENIED_MESSAGE, "invalid_target");
    return;
  }
  let target: URL;
  try {
    target = new URL(request.url ?? "");
  } catch {
    if (written && written.scheme !== "http") {
      const port = written.port ?? (written.scheme === "https" ? 443 : 0);
      refuseWithoutConnect(context, request, response, written.host, port);
      return;
    }
    context.record({ decision: "deny", host: "", port: 0, reason: "invalid_request_url" });
    answerError(
      request,
      response,
      400,
      "invalid_request_url",
      "Paperclip sandbox proxy requires an absolute request URL.",
    );
    return;
  }
  if (target.protocol !== "http:") {
    const port = Number(target.port || (target.protocol === "https:" ? "443" : "0"));
    refuseWithoutConnect(context, request, response, target.hostname, port);
    return;
  }
  const host = canonicalizeHost(target.hostname);
  const port = Number(target.port || "80");
  if (!host || port === 0) {
    const reason = host ? "invalid_port" : "invalid_target";
    context.record({ decision: "deny", host: reportedHost(target.hostname), port, reason });
    answerError(request, response, 403, "network_target_denied", DENIED_MESSAGE, reason);
    return;
  }
  const label = formatCanonicalHost(host);
  // Taken before the decision, whose lookup may wait its turn. A request past the limit is
  // answered at once, and the answer closes its connection (its request is not complete yet
  // when Node hands it over), so nothing more of a pipelined burst is read.
  const slot = context.requestSlots.take(request.socket, response);
  if (!slot) {
    context.record({ decision: "deny", host: label, port, reason: "connection_limit" });
    answerError(
      request,
      response,
      503,
      "proxy_connection_limit",
      CONNECTION_LIMIT_MESSAGE,
      "connection_limit",
    );
    return;
  }
  context
    .decide(host, port)
    .then((verdict) => {
      context.record({ decision: verdict.decision, host: label, port, reason: verdict.reason });
      if (response.destroyed) return;
      if (verdict.decision === "allow") {
        if (expectsContinue) response.writeContinue();
        sendUpstream(context, request, response, target, port, verdict.addresses, slot);
      } else if (verdict.failure === "lookup") {
        answerError(request, response, 502, "upstream_error", UPSTREAM_ERROR_MESSAGE, verdict.reason);
      } else {
        answerError(request, response, 403, "network_target_denied", DENIED_MESSAGE, verdict.reason);
      }
    })
    // Last line of defence: a throw here would be an unhandled rejection, which ends the host process.
    .catch(() => response.destroy());
}
