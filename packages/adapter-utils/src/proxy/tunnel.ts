import { connect, type Socket } from "node:net";
import { offerTunnel } from "../handoff/offer-tunnel.js";
import { formatCanonicalHost } from "./canonical-host.js";
import { parseConnectAuthority } from "./connect-authority.js";
import { releaseConnectionId } from "./held-connection-id.js";
import { pinnedLookup } from "./pinned-lookup.js";
import {
  DENIED_MESSAGE,
  type ProxyContext,
  type TunnelHandoff,
  UPSTREAM_ERROR_MESSAGE,
} from "./proxy-context.js";
import { formatRawProxyError } from "./proxy-error.js";
import { refuseSocket } from "./refuse-socket.js";
import { forwardInto, relayReadsInto } from "./relay-reads.js";
import { reportedHost } from "./reported-host.js";
import { endLeg, followLeg } from "./tunnel-legs.js";

const ESTABLISHED = "HTTP/1.1 200 Connection Established\r\n\r\n";

/**
 * The host relays an established tunnel: both legs pass through this process.
 * Returns a function that takes the relay off both sockets (for a handoff).
 */
function relayTunnel(
  context: ProxyContext,
  client: Socket,
  upstream: Socket,
  onRelayed?: (bytes: number) => void,
): () => void {
  const onIdle = () => {
    client.destroy();
    upstream.destroy();
  };
  const onUpstreamEnd = () => endLeg(client);
  const onUpstreamClose = (hadError: boolean) => followLeg(client, hadError);
  const onClientClose = (hadError: boolean) => followLeg(upstream, hadError);
  client.setTimeout(context.limits.tunnelIdleMs, onIdle);
  upstream.on("end", onUpstreamEnd);
  const stopForwarding = forwardInto(client, upstream, onRelayed);
  upstream.once("close", onUpstreamClose);
  client.once("close", onClientClose);
  upstream.resume();
  return () => {
    client.setTimeout(0);
    client.off("timeout", onIdle);
    upstream.off("end", onUpstreamEnd);
    stopForwarding();
    upstream.off("close", onUpstreamClose);
    client.off("close", onClientClose);
  };
}

/**
 * A tunnel of a bridge that can take tunnels over (context.handoff) is relayed here
 * until it has carried `handoffAfterBytes`, then offered to the bridge: a short
 * exchange never pays for the handoff's round trips, a long transfer leaves this
 * process. A refused offer goes back to the host relay for good.
 */
function relayThenOffer(
  context: ProxyContext,
  handoff: TunnelHandoff,
  id: string,
  client: Socket,
  upstream: Socket,
  holdUpstream: (held: boolean) => void,
): (bytes: number) => void {
  let relayed = 0;
  let offered = false;
  let detach = () => {};
  const onRelayed = (bytes: number) => {
    relayed += bytes;
    if (offered || relayed < context.limits.handoffAfterBytes) return;
    offered = true;
    // Either leg that ended, or is gone, stays with the host: the drain needs both open.
    if (client.readableEnded || client.destroyed || upstream.readableEnded || upstream.writableEnded) return;
    holdUpstream(true);
    upstream.pause();
    detach();
    offerTunnel({
      courier: handoff.courier,
      id,
      client,
      upstream,
      idleMs: context.limits.tunnelIdleMs,
      onHandedOff: handoff.onHandedOff,
      relayInstead: () => {
        holdUpstream(false);
        relayTunnel(context, client, upstream);
      },
    });
  };
  detach = relayTunnel(context, client, upstream, onRelayed);
  return onRelayed;
}

function openTunnel(
  context: ProxyContext,
  client: Socket,
  head: Buffer,
  host: string,
  port: number,
  addresses: Parameters<typeof pinnedLookup>[0],
): void {
  const handoff = context.handoff;
  const handoffId = handoff?.ids.get(client);
  let held = false;
  let onRelayed: ((bytes: number) => void) | undefined;
  // Target to sandbox (the download direction) relays from the read buffer; the other way forwards chunks.
  const upstream: Socket = connect({
    host,
    port,
    lookup: pinnedLookup(addresses),
    allowHalfOpen: true,
    noDelay: true,
    onread: relayReadsInto(
      client,
      () => (held ? null : upstream),
      (bytes) => onRelayed?.(bytes),
    ),
  });
  context.upstreamSockets.add(upstream);
  upstream.on("error", () => {});
  upstream.once("close", () => context.upstreamSockets.delete(upstream));
  const refuseUnreached = () =>
    refuseSocket(
      client,
      formatRawProxyError("502 Bad Gateway", "upstream_error", UPSTREAM_ERROR_MESSAGE),
      true,
    );
  const abandon = () => upstream.destroy();
  upstream.once("close", refuseUnreached);
  client.once("close", abandon);
  upstream.once("connect", () => {
    upstream.off("close", refuseUnreached);
    client.off("close", abandon);
    client.write(ESTABLISHED);
    releaseConnectionId(client);
    if (head.length > 0) upstream.write(head);
    if (!handoff || handoffId === undefined) relayTunnel(context, client, upstream);
    else
      onRelayed = relayThenOffer(context, handoff, handoffId, client, upstream, (hold) => {
        held = hold;
      });
  });
}

/** Serves one CONNECT request: a byte-for-byte tunnel when allowed, a JSON 403 otherwise. */
export function handleConnect(context: ProxyContext, client: Socket, target: string, head: Buffer): void {
  const authority = parseConnectAuthority(target);
  if (!authority.ok) {
    context.record({ decision: "deny", host: reportedHost(target), port: 0, reason: authority.reason });
    refuseSocket(
      client,
      formatRawProxyError("403 Forbidden", "network_target_denied", DENIED_MESSAGE, authority.reason),
      true,
    );
    return;
  }
  const { host, port } = authority;
  const label = formatCanonicalHost(host);
  context
    .decide(host, port)
    .then((verdict) => {
      context.record({ decision: verdict.decision, host: label, port, reason: verdict.reason });
      if (client.destroyed) return;
      if (verdict.decision === "allow") {
        openTunnel(context, client, head, host.key, port, verdict.addresses);
      } else if (verdict.failure === "lookup") {
        refuseSocket(
          client,
          formatRawProxyError("502 Bad Gateway", "upstream_error", UPSTREAM_ERROR_MESSAGE, verdict.reason),
          true,
        );
      } else {
        refuseSocket(
          client,
          formatRawProxyError("403 Forbidden", "network_target_denied", DENIED_MESSAGE, verdict.reason),
          true,
        );
      }
    })
    // Last line of defence: a throw here would be an unhandled rejection, which ends the host process.
    .catch(() => client.destroy());
}
