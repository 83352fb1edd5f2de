import { connect, type Socket } from "node:net";
import { offerTunnel } from "../handoff/offer-tunnel.js";
import { formatCanonicalHost } from "./canonical-host.js";
import { parseConnectAuthority } from "./connect-authority.js";
import { pinnedLookup } from "./pinned-lookup.js";
import { DENIED_MESSAGE, type ProxyContext, reportedHost, UPSTREAM_ERROR_MESSAGE } from "./proxy-context.js";
import { formatRawProxyError } from "./proxy-error.js";
import { refuseSocket } from "./refuse-socket.js";
import { forwardInto, relayReadsInto } from "./relay-reads.js";

const ESTABLISHED = "HTTP/1.1 200 Connection Established\r\n\r\n";

/**
 * When one leg of a tunnel closes, the other follows: at once after an error,
 * otherwise after it has flushed what it still holds for its peer. A leg that
 * already ended is not ended again (Node would build an error object for it).
 */
function follow(leg: Socket, hadError: boolean): void {
  if (hadError || leg.writableFinished) {
    leg.destroy();
    return;
  }
  if (!leg.writableEnded) leg.end();
  leg.once("finish", () => leg.destroy());
}

/** Ends the write side of a leg whose peer sent its FIN, unless it is already ending or gone. */
function endLeg(leg: Socket): void {
  if (!leg.writableEnded && !leg.destroyed) leg.end();
}

/** The host relays an established tunnel: both legs pass through this process. */
function relayTunnel(context: ProxyContext, client: Socket, upstream: Socket): void {
  client.setTimeout(context.limits.tunnelIdleMs, () => {
    client.destroy();
    upstream.destroy();
  });
  upstream.on("end", () => endLeg(client));
  forwardInto(client, upstream);
  upstream.once("close", (hadError) => follow(client, hadError));
  client.once("close", (hadError) => follow(upstream, hadError));
  upstream.resume();
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
  // Target to sandbox (the download direction) relays from the read buffer; the other way forwards chunks.
  const upstream: Socket = connect({
    host,
    port,
    lookup: pinnedLookup(addresses),
    allowHalfOpen: true,
    noDelay: true,
    onread: relayReadsInto(client, () => upstream),
  });
  // A socket that may go to the bridge is never read here: paused before it connects, it does not start reading.
  if (handoffId !== undefined) upstream.pause();
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
    if (head.length > 0) upstream.write(head);
    if (!handoff || handoffId === undefined) {
      relayTunnel(context, client, upstream);
      return;
    }
    offerTunnel({
      courier: handoff.courier,
      id: handoffId,
      client,
      upstream,
      idleMs: context.limits.tunnelIdleMs,
      onHandedOff: handoff.onHandedOff,
      relayInstead: () => relayTunnel(context, client, upstream),
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
