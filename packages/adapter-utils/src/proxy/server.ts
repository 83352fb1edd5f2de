import { rm } from "node:fs/promises";
import { Agent, createServer as createHttpServer } from "node:http";
import { createServer as createNetServer, type Server, type Socket } from "node:net";
import path from "node:path";
import { SandboxError } from "@paperclipai/errors";
import {
  BRIDGE_SOCKET_NAME,
  type ConnectionId,
  connectionId,
  HANDOFF_SOCKET_NAME,
} from "../handoff/handoff-wire.js";
import { startTunnelCourier } from "../handoff/tunnel-courier.js";
import { assertUnixSocketPathLength } from "../temp-dir/socket-path-length.js";
import { forwardHttpRequest } from "./forward-http.js";
import { resolveProxyLimits, type SandboxNetworkProxyLimits } from "./limits.js";
import { buildNetworkPolicy } from "./network-policy.js";
import { type NetworkDecision, type ProxyContext, reportedHost } from "./proxy-context.js";
import { formatRawProxyError } from "./proxy-error.js";
import { refuseSocket } from "./refuse-socket.js";
import type { NetworkResolver } from "./resolve-target.js";
import { createRunResolver } from "./run-resolver.js";
import { decideNetworkTarget, type TargetDecision } from "./target-decision.js";
import { handleConnect } from "./tunnel.js";

export interface SandboxNetworkProxyOptions {
  /** Unix socket the proxy listens on; must not exist yet. */
  socketPath: string;
  /** `networkAllowlist` entries: `host` (ports 80, 443), `host:port`, `host:*`, `[v6]:port`, origin URLs. */
  allowlist: readonly unknown[];
  /** `networkTrustedUrls`: their origin is always allowed, private addresses included. */
  trustedUrls: readonly unknown[];
  /** Called once per attempt; errors it throws are ignored. */
  onNetworkDecision?: ((decision: NetworkDecision) => void) | undefined;
  /** Hostname resolution, once per attempt; defaults to this proxy's own resolver (`run-resolver.ts`). */
  resolver?: NetworkResolver | undefined;
  limits?: SandboxNetworkProxyLimits | undefined;
  /**
   * The native bridge binary the sandbox runs (`dist/native/<platform>-<arch>/paperclip-sandbox-bridge`).
   * When set, the proxy takes a courier of that binary (listening on `pass.sock` beside the
   * socket), serves the bridge's own connections on `relay.sock`, and hands a CONNECT tunnel of
   * theirs over to the bridge once it has carried `limits.handoffAfterBytes`, so the rest of
   * its bytes no longer pass through this process (src/handoff/README.md). Without a courier
   * every tunnel is relayed here.
   */
  handoffBridge?: string | undefined;
}

export interface SandboxNetworkProxyStats {
  /** Sandbox connections accepted since start (refused ones included). */
  connections: number;
  /** Sandbox connections open now, tunnels included. */
  activeConnections: number;
  /** Bytes received from the sandbox. */
  bytesIn: number;
  /** Bytes sent to the sandbox. */
  bytesOut: number;
  /** Attempts refused: policy, address checks, lookups, malformed requests, connection limit. */
  denied: number;
  allowed: number;
  /** Tunnels handed to the native bridge; their bytes after the handoff are not in bytesIn/bytesOut. */
  handedOff: number;
}

export interface SandboxNetworkProxy {
  readonly socketPath: string;
  /** Whether a courier serves this proxy: its bridge must reach it, or not start the program. */
  readonly handoff: boolean;
  /** Closes every connection and tunnel, stops listening and removes the socket file. */
  close(): Promise<void>;
  stats(): SandboxNetworkProxyStats;
}

const UPGRADE_MESSAGE = "Protocol upgrades must use CONNECT through the Paperclip sandbox proxy.";

function clientErrorResponse(code: string | undefined): { status: string; code: string; message: string } {
  if (code === "HPE_HEADER_OVERFLOW") {
    return {
      status: "431 Request Header Fields Too Large",
      code: "request_header_too_large",
      message: "Request headers exceed the Paperclip sandbox proxy limit.",
    };
  }
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return {
      status: "408 Request Timeout",
      code: "request_timeout",
      message: "Paperclip sandbox proxy did not receive a complete request head in time.",
    };
  }
  return {
    status: "400 Bad Request",
    code: "malformed_request",
    message: "Paperclip sandbox proxy could not parse the request.",
  };
}

function listenOn(server: Server, socketPath: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        new SandboxError(
          "ERR_SANDBOX_PROXY_LISTEN",
          `Paperclip sandbox network proxy could not listen on ${socketPath}.`,
          { cause: error, details: { socketPath, code: error.code ?? "unknown" } },
        ),
      );
    };
    server.once("error", onError);
    server.listen(socketPath, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

/**
 * Starts the allowlist proxy on a Unix socket: plain HTTP in absolute form and
 * CONNECT tunnels, each target checked against the policy, resolved once,
 * address-checked and connected to the checked address.
 */
export async function startSandboxNetworkProxy(
  options: SandboxNetworkProxyOptions,
): Promise<SandboxNetworkProxy> {
  // bind() would silently truncate a longer path and the bridge would connect to nothing.
  assertUnixSocketPathLength(options.socketPath);
  const policy = buildNetworkPolicy(options.allowlist, options.trustedUrls);
  const limits = resolveProxyLimits(options.limits);
  const runResolver = options.resolver
    ? null
    : createRunResolver({
        timeoutMs: limits.dnsTimeoutMs,
        tries: limits.dnsTries,
        maxConcurrentLookups: limits.maxConcurrentLookups,
      });
  const resolver = options.resolver ?? runResolver!.resolve;
  const onNetworkDecision = options.onNetworkDecision;
  /** Every sandbox socket, refused ones included, so `close()` reaches them all. */
  const sockets = new Set<Socket>();
  /** Accepted sockets, the ones the connection limit counts. */
  const clientSockets = new Set<Socket>();
  const counters = {
    connections: 0,
    closedBytesIn: 0,
    closedBytesOut: 0,
    denied: 0,
    allowed: 0,
    handedOff: 0,
  };
  const courier = options.handoffBridge
    ? await startTunnelCourier(
        options.handoffBridge,
        path.join(path.dirname(options.socketPath), HANDOFF_SOCKET_NAME),
      )
    : null;
  let closing: Promise<void> | undefined;

  const context: ProxyContext = {
    limits,
    agent: new Agent({ keepAlive: true }),
    upstreamSockets: new Set(),
    handoff: courier
      ? { courier, ids: new WeakMap(), onHandedOff: () => (counters.handedOff += 1) }
      : undefined,
    decide: (host, port) =>
      decideNetworkTarget(policy, host, port, resolver).then(
        // A lookup that finishes after close() must not open a connection nobody will close.
        (verdict): TargetDecision =>
          closing ? { decision: "deny", reason: "proxy_closed", failure: "policy" } : verdict,
        (): TargetDecision => ({ decision: "deny", reason: "dns_lookup_failed", failure: "lookup" }),
      ),
    record(decision) {
      if (decision.decision === "allow") counters.allowed += 1;
      else counters.denied += 1;
      if (!onNetworkDecision) return;
      // An audit hook must not be able to take the proxy down.
      try {
        const returned: unknown = onNetworkDecision({ ...decision });
        if (returned instanceof Promise) returned.catch(() => {});
      } catch {}
    },
  };

  const http = createHttpServer({
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
  http.on("request", (request, response) => forwardHttpRequest(context, request, response));
  http.on("connect", (request, socket, head: Buffer) =>
    handleConnect(context, socket as Socket, request.url ?? "", head),
  );
  http.on("upgrade", (request, socket) => {
    context.record({
      decision: "deny",
      host: reportedHost(request.headers.host ?? ""),
      port: 0,
      reason: "upgrade_requires_connect",
    });
    refuseSocket(
      socket as Socket,
      formatRawProxyError("400 Bad Request", "upgrade_requires_connect", UPGRADE_MESSAGE),
      true,
    );
  });
  http.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    const raw = socket as Socket & { _httpMessage?: { headersSent?: boolean } };
    if (error.code === "ECONNRESET" || !raw.writable || raw._httpMessage?.headersSent) {
      raw.destroy();
      return;
    }
    const answer = clientErrorResponse(error.code);
    context.record({ decision: "deny", host: "", port: 0, reason: answer.code });
    refuseSocket(raw, formatRawProxyError(answer.status, answer.code, answer.message), false);
  });

  const accept = (socket: Socket, bridgeId?: ConnectionId) => {
    counters.connections += 1;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.once("close", () => {
      sockets.delete(socket);
      clientSockets.delete(socket);
      counters.closedBytesIn += socket.bytesRead;
      counters.closedBytesOut += socket.bytesWritten;
    });
    // The bridge reads its connection's id before anything else, a refusal included.
    if (bridgeId) {
      socket.write(bridgeId.bytes);
      context.handoff?.ids.set(socket, bridgeId.hex);
    }
    if (clientSockets.size >= limits.maxConnections) {
      context.record({ decision: "deny", host: "", port: 0, reason: "connection_limit" });
      refuseSocket(
        socket,
        formatRawProxyError(
          "503 Service Unavailable",
          "proxy_connection_limit",
          "Paperclip sandbox proxy connection limit reached.",
          "connection_limit",
        ),
        true,
      );
      return;
    }
    clientSockets.add(socket);
    http.emit("connection", socket);
  };
  const listener = createNetServer({ allowHalfOpen: true }, (socket) => accept(socket));
  // The native bridge's own connections, named so a tunnel of theirs can be handed to it.
  let lastBridgeId = 0n;
  const bridgeSocketPath = path.join(path.dirname(options.socketPath), BRIDGE_SOCKET_NAME);
  const bridgeListener = courier
    ? createNetServer({ allowHalfOpen: true }, (socket) => {
        lastBridgeId += 1n;
        accept(socket, connectionId(lastBridgeId));
      })
    : null;
  const listeners = bridgeListener ? [listener, bridgeListener] : [listener];

  await Promise.all([
    listenOn(listener, options.socketPath),
    bridgeListener ? listenOn(bridgeListener, bridgeSocketPath) : undefined,
  ]).catch(async (error: unknown) => {
    for (const server of listeners) server.close();
    http.close();
    context.agent.destroy();
    runResolver?.close();
    await courier?.close();
    await rm(bridgeSocketPath, { force: true });
    throw error;
  });
  for (const server of listeners) server.on("error", () => {});
  // The HTTP server never listens itself (the net listener owns the socket, to apply the
  // connection limit before any parsing), so its head-timeout checker, which Node starts
  // on "listening", is started here.
  http.emit("listening");

  return {
    socketPath: options.socketPath,
    handoff: courier !== null,
    close() {
      closing ??= (async () => {
        const stopped = Promise.all(
          listeners.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
        );
        for (const socket of sockets) socket.destroy();
        for (const socket of context.upstreamSockets) socket.destroy();
        context.agent.destroy();
        runResolver?.close();
        http.close();
        await Promise.all([stopped, courier?.close()]);
        await Promise.all([rm(options.socketPath, { force: true }), rm(bridgeSocketPath, { force: true })]);
      })();
      return closing;
    },
    stats() {
      let bytesIn = counters.closedBytesIn;
      let bytesOut = counters.closedBytesOut;
      for (const socket of sockets) {
        bytesIn += socket.bytesRead;
        bytesOut += socket.bytesWritten;
      }
      return {
        connections: counters.connections,
        activeConnections: clientSockets.size,
        bytesIn,
        bytesOut,
        denied: counters.denied,
        allowed: counters.allowed,
        handedOff: counters.handedOff,
      };
    },
  };
}
