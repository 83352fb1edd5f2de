import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { clientErrorResponse } from "./client-error-response.js";
import { forwardHttpRequest } from "./forward-http.js";
import { releaseConnectionId } from "./held-connection-id.js";
import type { ProxyContext } from "./proxy-context.js";
import { formatRawProxyError } from "./proxy-error.js";
import { refuseSocket } from "./refuse-socket.js";
import { reportedHost } from "./reported-host.js";
import { stopParsingWhen } from "./stop-parsing.js";
import { handleConnect } from "./tunnel.js";
import { UnsentAnswers } from "./unsent-answers.js";

const UPGRADE_MESSAGE = "Protocol upgrades must use CONNECT through the Paperclip sandbox proxy.";

function refuseUpgrade(context: ProxyContext, host: string, socket: Socket): void {
  context.record({ decision: "deny", host: reportedHost(host), port: 0, reason: "upgrade_requires_connect" });
  refuseSocket(
    socket,
    formatRawProxyError("400 Bad Request", "upgrade_requires_connect", UPGRADE_MESSAGE),
    true,
  );
}

function answerClientError(context: ProxyContext, error: NodeJS.ErrnoException, socket: Socket): void {
  const raw = socket as Socket & { _httpMessage?: { headersSent?: boolean } };
  if (error.code === "ECONNRESET" || !raw.writable || raw._httpMessage?.headersSent) {
    raw.destroy();
    return;
  }
  const answer = clientErrorResponse(error.code);
  context.record({ decision: "deny", host: "", port: 0, reason: answer.code });
  refuseSocket(raw, formatRawProxyError(answer.status, answer.code, answer.message), false);
}

/**
 * The HTTP server that parses what the sandbox sends: absolute-form requests are
 * forwarded, CONNECT tunnels served, upgrades and unparsable heads refused. It never
 * listens itself: accepted sockets are handed to it (`sandbox-connections.ts`).
 */
export function createProxyHttpServer(context: ProxyContext): Server {
  const { limits } = context;
  const http = createServer({
    maxHeaderSize: limits.maxHeaderBytes,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: 0,
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    // The target comes from the absolute request URL; a missing Host gets our JSON answers, not a bare 400.
    requireHostHeader: false,
  });
  // A client that half-closes after its request (`shutdown(SHUT_WR)`) still gets the
  // response; Node's default would abort the request on the client's FIN.
  (http as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen = true;
  // Node's parser frames a body by every header it reads, but by default hands over only the
  // first 2000: a `Content-Length` or `Transfer-Encoding` past them framed the body here and was
  // missing from what goes upstream, where a GET's body then parsed as a second request.
  // `maxHeaderBytes` already bounds how many a head can hold.
  http.maxHeadersCount = 0;
  // No connection queues more than maxPipelinedRequests unsent answers (unsent-answers.ts):
  // its next request head closes it, and Node parses no further (stop-parsing.ts). Every
  // request Node makes an answer for is counted, the ordinary ones and those with an
  // `Expect` other than 100-continue, which Node would answer 417 itself.
  const unsent = new UnsentAnswers(limits.maxPipelinedRequests);
  const closeOverflowing = (socket: Socket) => {
    if (socket.destroyed) return;
    context.record({ decision: "deny", host: "", port: 0, reason: "pipeline_limit" });
    socket.destroy();
  };
  http.on("connection", (socket: Socket) =>
    stopParsingWhen(socket, () => {
      if (unsent.full(socket)) closeOverflowing(socket);
      return socket.destroyed;
    }),
  );
  // A bridge connection's held id (held-connection-id.ts) goes out before any answer to a
  // request: these listeners come first. A CONNECT sends it with its own answer; an upgrade
  // or a client error is answered by ending the socket, which sends it too.
  for (const event of ["request", "checkContinue", "checkExpectation"] as const)
    http.on(event, (request: IncomingMessage) => releaseConnectionId(request.socket));
  const admitted = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (unsent.admit(request.socket, response)) return true;
    closeOverflowing(request.socket);
    return false;
  };
  http.on("request", (request, response) => {
    if (admitted(request, response)) forwardHttpRequest(context, request, response);
  });
  // `Expect: 100-continue`: Node would send the interim 100 at once, inviting the body of a
  // request it has not judged yet. The proxy sends it only once the target is allowed; a
  // denied request gets its final answer instead, and the client keeps its body.
  http.on("checkContinue", (request, response) => {
    if (admitted(request, response)) forwardHttpRequest(context, request, response, true);
  });
  http.on("checkExpectation", (request, response) => {
    if (!admitted(request, response)) return;
    response.writeHead(417);
    response.end();
  });
  http.on("connect", (request, socket, head: Buffer) =>
    handleConnect(context, socket as Socket, request.url ?? "", head),
  );
  http.on("upgrade", (request, socket) =>
    refuseUpgrade(context, request.headers.host ?? "", socket as Socket),
  );
  http.on("clientError", (error: NodeJS.ErrnoException, socket) =>
    answerClientError(context, error, socket as Socket),
  );
  return http;
}
