import type { ClientRequest, IncomingMessage } from "node:http";

/**
 * The response of a `node:http(s)` request, or a rejection for every other way it can end.
 * A `101 Switching Protocols` hands the socket to an `upgrade` listener and, with none, is
 * destroyed without a `response` or an `error`: the request is then over, an abort can no
 * longer reach it, and a bare listener pair would wait for ever, past every deadline. So an
 * upgrade is refused (the socket is the server's, never ours to speak on), and a request
 * that closes before its response fails. A `101` without `Upgrade` comes as a response, the
 * only informational status that does: it is refused too (a fetch `Response` cannot even
 * hold it), so no caller ever sees a status below 200.
 */
export function awaitedResponse(request: ClientRequest): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    request.once("response", (response: IncomingMessage) => {
      if ((response.statusCode ?? 0) >= 200) return resolve(response);
      response.destroy();
      request.destroy();
      reject(new Error("The server switched protocols."));
    });
    request.on("error", reject);
    request.once("upgrade", (_response: IncomingMessage, socket: { destroy(): void }) => {
      socket.destroy();
      request.destroy();
      reject(new Error("The server switched protocols."));
    });
    // After a response this changes nothing: the promise has settled.
    request.once("close", () => reject(new Error("The request closed before a response.")));
  });
}
