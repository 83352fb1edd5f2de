import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { ConnectionId } from "../handoff/handoff-wire.js";
import { holdConnectionId } from "./held-connection-id.js";
import { CONNECTION_LIMIT_MESSAGE, type ProxyContext } from "./proxy-context.js";
import { formatRawProxyError } from "./proxy-error.js";
import type { ProxyCounters } from "./proxy-stats.js";
import { refuseSocket } from "./refuse-socket.js";

const CONNECTION_LIMIT_RESPONSE = formatRawProxyError(
  "503 Service Unavailable",
  "proxy_connection_limit",
  CONNECTION_LIMIT_MESSAGE,
  "connection_limit",
);

export interface SandboxConnections {
  /** Every sandbox socket, refused ones included, so `close()` reaches them all. */
  readonly all: ReadonlySet<Socket>;
  /** How many accepted sockets are open: the ones the connection limit counts. */
  readonly activeCount: number;
  /** Takes a socket a listener accepted; `bridgeId` names a native bridge's connection. */
  accept(socket: Socket, bridgeId?: ConnectionId): void;
  destroyAll(): void;
}

/**
 * The proxy's sandbox sockets: each counted and its bytes tallied once it closes, refused
 * past `limits.maxConnections` before any parsing, else handed to the HTTP server.
 * A refusal lingers until its client closes (at most `refuse-socket.ts`'s linger time), so
 * at most `maxConnections` linger at once; past them a socket is closed unanswered. Else a
 * program that connects again and again and never closes held a descriptor of the host
 * process for every connection it made in the linger time, without bound.
 */
export function trackSandboxConnections(
  context: ProxyContext,
  http: Server,
  counters: ProxyCounters,
): SandboxConnections {
  const all = new Set<Socket>();
  const accepted = new Set<Socket>();
  const refusing = new Set<Socket>();
  const accept = (socket: Socket, bridgeId?: ConnectionId) => {
    counters.connections += 1;
    all.add(socket);
    socket.on("error", () => {});
    socket.once("close", () => {
      all.delete(socket);
      accepted.delete(socket);
      refusing.delete(socket);
      counters.closedBytesIn += socket.bytesRead;
      counters.closedBytesOut += socket.bytesWritten;
    });
    // The bridge reads its connection's id before anything else, a refusal included: it
    // leaves with the proxy's first answer (held-connection-id.ts).
    if (bridgeId) {
      holdConnectionId(socket, bridgeId.bytes);
      context.handoff?.ids.set(socket, bridgeId.hex);
    }
    if (accepted.size >= context.limits.maxConnections) {
      context.record({ decision: "deny", host: "", port: 0, reason: "connection_limit" });
      if (refusing.size >= context.limits.maxConnections) {
        socket.destroy();
        return;
      }
      refusing.add(socket);
      refuseSocket(socket, CONNECTION_LIMIT_RESPONSE, true);
      return;
    }
    accepted.add(socket);
    http.emit("connection", socket);
  };
  return {
    all,
    get activeCount() {
      return accepted.size;
    },
    accept,
    destroyAll() {
      for (const socket of all) socket.destroy();
    },
  };
}
