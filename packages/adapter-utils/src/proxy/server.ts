import { rm } from "node:fs/promises";
import type { Server as HttpServer } from "node:http";
import type { Server } from "node:net";
import path from "node:path";
import { BRIDGE_SOCKET_NAME, HANDOFF_SOCKET_NAME } from "../handoff/handoff-wire.js";
import { startTunnelCourier, type TunnelCourier } from "../handoff/tunnel-courier.js";
import { assertUnixSocketPathLength } from "../temp-dir/socket-path-length.js";
import { createProxyContext } from "./create-proxy-context.js";
import { type ResolvedProxyLimits, resolveProxyLimits, type SandboxNetworkProxyLimits } from "./limits.js";
import { buildNetworkPolicy, type NetworkPolicy } from "./network-policy.js";
import type { NetworkDecision, ProxyContext } from "./proxy-context.js";
import { createProxyHttpServer } from "./proxy-http-server.js";
import {
  newProxyCounters,
  type ProxyCounters,
  proxyStats,
  type SandboxNetworkProxyStats,
} from "./proxy-stats.js";
import type { NetworkResolver } from "./resolve-target.js";
import { createRunResolver } from "./run-resolver.js";
import { type SandboxConnections, trackSandboxConnections } from "./sandbox-connections.js";
import { listenForSandbox } from "./sandbox-listeners.js";

export type { SandboxNetworkProxyStats } from "./proxy-stats.js";

export interface SandboxNetworkProxyOptions {
  /** Unix socket the proxy listens on; must not exist yet. */
  socketPath: string;
  /** `networkAllowlist` entries: `host` (ports 80, 443), `host:port`, `host:*`, `[v6]:port`, origin URLs. */
  allowlist: readonly unknown[];
  /** `networkTrustedUrls`: their origin is always allowed, private addresses included. Optional. */
  trustedUrls?: readonly unknown[] | undefined;
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
   * its bytes no longer pass through this process (docs/adapter-utils/handoff.md). Without a courier
   * every tunnel is relayed here.
   */
  handoffBridge?: string | undefined;
}

export interface SandboxNetworkProxy {
  readonly socketPath: string;
  /** Whether a courier serves this proxy: its bridge must reach it, or not start the program. */
  readonly handoff: boolean;
  /** Closes every connection and tunnel, stops listening and removes the socket file. */
  close(): Promise<void>;
  stats(): SandboxNetworkProxyStats;
}

/** The resolver a proxy asks: the caller's, or its own (`run-resolver.ts`), closed with the proxy. */
function proxyResolver(
  given: NetworkResolver | undefined,
  limits: ResolvedProxyLimits,
): { resolve: NetworkResolver; close(): void } {
  if (given) return { resolve: given, close: () => {} };
  const own = createRunResolver({
    timeoutMs: limits.dnsTimeoutMs,
    tries: limits.dnsTries,
    maxConcurrentLookups: limits.maxConcurrentLookups,
  });
  return { resolve: own.resolve, close: () => own.close() };
}

/** What a running proxy is made of. */
interface ProxyParts {
  readonly context: ProxyContext;
  readonly counters: ProxyCounters;
  readonly http: HttpServer;
  readonly connections: SandboxConnections;
  readonly resolver: { close(): void };
  readonly courier: TunnelCourier | null;
  readonly socketPath: string;
  readonly bridgeSocketPath: string;
}

function besideSocket(socketPath: string, name: string): string {
  return path.join(path.dirname(socketPath), name);
}

/** The proxy's parts, wired but not listening yet. */
function assembleProxy(
  options: SandboxNetworkProxyOptions,
  policy: NetworkPolicy,
  limits: ResolvedProxyLimits,
  resolver: ReturnType<typeof proxyResolver>,
  courier: TunnelCourier | null,
  isClosing: () => boolean,
): ProxyParts {
  const counters = newProxyCounters();
  const context = createProxyContext({
    policy,
    limits,
    courier,
    counters,
    resolver: resolver.resolve,
    onNetworkDecision: options.onNetworkDecision,
    isClosing,
  });
  const http = createProxyHttpServer(context);
  const connections = trackSandboxConnections(context, http, counters);
  const { socketPath } = options;
  const bridgeSocketPath = besideSocket(socketPath, BRIDGE_SOCKET_NAME);
  return { context, counters, http, connections, resolver, courier, socketPath, bridgeSocketPath };
}

/** Stops everything but the listeners: the HTTP server, the upstream agent, the resolver, the courier. */
async function stopServing(parts: ProxyParts): Promise<void> {
  parts.context.agent.destroy();
  parts.resolver.close();
  parts.http.close();
  await parts.courier?.close();
}

/** Listens for the sandbox (and the native bridge, with a courier); when it cannot, stops the rest too. */
async function listenOrStop(parts: ProxyParts): Promise<Server[]> {
  const bridgeListens = parts.courier ? parts.bridgeSocketPath : null;
  try {
    return await listenForSandbox(parts.socketPath, bridgeListens, parts.connections.accept);
  } catch (error) {
    await stopServing(parts);
    await rm(parts.bridgeSocketPath, { force: true });
    throw error;
  }
}

/** `close()`: no more connections, every open one and every tunnel destroyed, the socket files gone. */
async function closeProxy(parts: ProxyParts, servers: readonly Server[]): Promise<void> {
  const stopped = Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
  );
  parts.connections.destroyAll();
  for (const socket of parts.context.upstreamSockets) socket.destroy();
  await Promise.all([stopped, stopServing(parts)]);
  await Promise.all([rm(parts.socketPath, { force: true }), rm(parts.bridgeSocketPath, { force: true })]);
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
  const resolver = proxyResolver(options.resolver, limits);
  const courier = options.handoffBridge
    ? await startTunnelCourier(options.handoffBridge, besideSocket(options.socketPath, HANDOFF_SOCKET_NAME))
    : null;
  let closing: Promise<void> | undefined;
  const parts = assembleProxy(options, policy, limits, resolver, courier, () => closing !== undefined);
  const servers = await listenOrStop(parts);
  // The HTTP server never listens itself (the net listener owns the socket, to apply the
  // connection limit before any parsing), so its head-timeout checker, which Node starts
  // on "listening", is started here.
  parts.http.emit("listening");
  return {
    socketPath: options.socketPath,
    handoff: courier !== null,
    close() {
      closing ??= closeProxy(parts, servers);
      return closing;
    },
    stats: () => proxyStats(parts.counters, parts.connections.all, parts.connections.activeCount),
  };
}
