import { setTimeout as delay } from "node:timers/promises";
import type WebSocket from "ws";
import type { DurableOptions } from "../durable-options.js";
import { acceptProvenServer } from "./accept-proven-server.js";
import { AuthenticatedConnection, type Welcome } from "./authenticated-connection.js";
import type { HelloInput } from "./handshake.js";
import { RefusedBeforeChallenge } from "./handshake-inbox.js";
import { LeaseCredentials } from "./lease-credentials.js";
import { leaseClock, leaseExpiry } from "./lease-expiry.js";
import { LeaseRenewal } from "./lease-renewal.js";
import { leaseRevoked, revokedEpoch } from "./lease-revocation.js";
import { controlEnvelope } from "./prp-envelope.js";
import { retriesRefusedProof } from "./refused-client-proof.js";
import { checkRenewalAnswer } from "./renewal-answer.js";
import { renewedRevocationEpoch } from "./revocation-epoch.js";
import { isConnectError, leaseExpired, reconnectDeadline } from "./transport-failure.js";

/** The open connection and the welcome it was authenticated with. */
export interface OpenLink {
  readonly connection: AuthenticatedConnection;
  readonly welcome: Welcome;
}

export interface ServerLinkDeps {
  readonly options: Pick<
    DurableOptions,
    "identity" | "runnerVersion" | "runnerDigest" | "reconnectDelayMs" | "reconnectGraceMs" | "endpoint"
  >;
  /** Opens a WebSocket to the server (dialling it, or accepting its connection in listen mode). */
  readonly dial: (signal?: AbortSignal) => Promise<WebSocket>;
  readonly log: (line: string) => void;
  /** A connection was authenticated and is open; resolves once the run has taken up its welcome. */
  readonly onWelcome: (welcome: Welcome) => Promise<void>;
  /** A message from the server other than the lease's own. */
  readonly onMessage: (message: Record<string, unknown>) => void;
  /** The open connection failed (a message that breaks the protocol), or the server revoked the lease (`isLeaseRevoked`). */
  readonly onFailure: (error: unknown) => void;
}

/**
 * Durable mode's connection to the server: dialled and authenticated with the ticket, then
 * re-established with the connection lease whenever it drops, within the reconnect grace;
 * the lease is renewed on the connection that holds it.
 */
export class ServerLink {
  private readonly credentials: LeaseCredentials;
  private readonly renewal = new LeaseRenewal();
  private open: OpenLink | null = null;
  /** The lease of the open connection expired unrenewed: the connection was closed, and the run stops. */
  private lapsed = false;
  /** The server revoked the lease (`ERR_RUNNER_DURABLE_LEASE_REVOKED`): nothing more is applied, no reconnect follows. */
  private revoked: Error | null = null;
  /** The expiries the unanswered `lease_renew`s sent on the open connection named, oldest first (one entry an ask). */
  private asked: number[] = [];
  /** Aborted by `close`: the dial, handshake or wait under way is withdrawn and nothing is dialled again. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly deps: ServerLinkDeps,
    ticket: string,
  ) {
    this.credentials = new LeaseCredentials(ticket);
  }

  /** The connection while one is open and welcomed; `null` between connections. */
  get current(): OpenLink | null {
    return this.open;
  }

  /**
   * Connects, and reconnects whenever the connection drops; rejects once it cannot (the lease
   * lapsed, the grace ran out), and returns once `close` stopped it.
   */
  async run(): Promise<void> {
    const { signal } = this.stopping;
    const { reconnectDelayMs, reconnectGraceMs } = this.deps.options;
    let deadline = Number.POSITIVE_INFINITY;
    let attempts = 0;
    /** Handshakes since the last welcome that the server closed on after the client proof (`retriesRefusedProof`). */
    let refusedProofs = 0;
    while (!signal.aborted) {
      const credential = this.credentials.next(leaseClock());
      const lease = this.credentials.binding;
      attempts += 1;
      try {
        const connection = await this.authenticate({
          credential,
          lease,
          leaseExpiry: this.credentials.leaseInUse,
          identity: this.deps.options.identity,
          runnerVersion: this.deps.options.runnerVersion,
          runnerDigest: this.deps.options.runnerDigest,
        });
        if (signal.aborted) {
          connection.close();
          return;
        }
        deadline = Number.POSITIVE_INFINITY;
        attempts = 0;
        refusedProofs = 0;
        // The welcome is taken up (synchronously, up to its first write) before the frames the
        // server sent behind it are delivered: they may answer or follow what it carried.
        const welcomed = this.onWelcome(connection);
        const closed = new Promise<void>((resolve) => {
          connection.listen({
            onMessage: (message, arrivedAtMs) => this.onMessage(message, arrivedAtMs, connection.welcome),
            onFailure: (error) => this.deps.onFailure(error),
            onClose: () => resolve(),
          });
        });
        await welcomed;
        await closed;
        this.open = null;
        this.renewal.cancel();
        if (this.revoked !== null) throw this.revoked;
        if (this.lapsed) throw leaseExpired(this.credentials.expiry.atUnixMs);
        if (signal.aborted) return;
        this.deps.log("connection closed; reconnecting with the connection lease");
      } catch (error) {
        if (this.lapsed || this.revoked !== null) throw error;
        if (signal.aborted) return;
        if (error instanceof RefusedBeforeChallenge) {
          this.credentials.checkRefusal();
        } else if (retriesRefusedProof(error, lease !== null, refusedProofs)) {
          // A renewal committed during the handshake; past the bound, the server's close is final.
          refusedProofs += 1;
        } else if (!isConnectError(error)) {
          throw error;
        }
        if (deadline === Number.POSITIVE_INFINITY) deadline = Date.now() + reconnectGraceMs;
      }
      if (Date.now() >= deadline) throw reconnectDeadline(attempts);
      await delay(reconnectDelayMs, undefined, { signal }).catch(() => undefined);
    }
  }

  /**
   * Dialled, the peer is the server the launcher named: its refusal counts. Listening, the peer
   * is whoever reached the port first, so only one that proves the credential counts.
   */
  private async authenticate(input: HelloInput): Promise<AuthenticatedConnection> {
    const { signal } = this.stopping;
    if (this.deps.options.endpoint.mode === "listen") {
      return await acceptProvenServer(
        (accepting) => this.deps.dial(accepting),
        input,
        this.deps.log,
        this.credentials.leaseInUse,
        signal,
      );
    }
    return await AuthenticatedConnection.open(await this.deps.dial(signal), input, { signal });
  }

  /**
   * Stops for good: no renewal, the open connection closed, a dial or handshake under way
   * withdrawn (its socket closed), and no reconnect; `run` returns.
   */
  close(): void {
    this.stopping.abort();
    this.renewal.cancel();
    this.open?.connection.close();
  }

  private async onWelcome(connection: AuthenticatedConnection): Promise<void> {
    const welcome = connection.welcome;
    this.credentials.welcomed(welcome.leaseToken, welcome.leaseExpiry, {
      leaseId: welcome.leaseId,
      revocationEpoch: welcome.revocationEpoch,
    });
    this.open = { connection, welcome };
    // A renewal asked on an earlier connection is answered there or not at all.
    this.asked = [];
    if (!welcome.renewsLease) {
      this.deps.log(
        "the welcome names no connectionLeaseRenewalVersion this runner speaks (1): the lease is not renewed and lapses at its expiry",
      );
    }
    this.scheduleRenewal(welcome.revocationEpoch);
    await this.deps.onWelcome(welcome);
  }

  /**
   * A message on the connection `welcome` opened: a renewal keeps that welcome's lease epoch; a
   * `revoke` ends the run. Thrown: the connection refuses the frame (and the run stops).
   */
  private onMessage(message: Record<string, unknown>, arrivedAtMs: number, welcome: Welcome): void {
    // After a revocation nothing the server sent behind it is applied.
    if (this.revoked !== null) return;
    const payload = (
      typeof message.payload === "object" && message.payload !== null ? message.payload : {}
    ) as Record<string, unknown>;
    if (message.kind === "revoke") {
      this.revoke(revokedEpoch(payload.revocationEpoch, welcome.revocationEpoch));
      return;
    }
    if (message.kind !== "lease_renewed") {
      this.deps.onMessage(message);
      return;
    }
    // An expiry that is not a finite number (or none) is a bad frame: it used to be ignored, and
    // `1e400` (Infinity) would have been a lease that never lapses. All are checked before any
    // is taken up: a refused frame leaves the lease as it was.
    const expiry = leaseExpiry(message, payload, arrivedAtMs, "lease");
    const epoch = renewedRevocationEpoch(payload.connectionLeaseRevocationEpoch, welcome.revocationEpoch);
    checkRenewalAnswer(payload.previousExpiresAtUnixMs, expiry.atUnixMs, this.asked);
    // The server answers the asks of one connection in order (or not at all): those before the
    // one answered were dropped and are never answered; those after it still may be.
    this.asked.splice(0, this.asked.indexOf(payload.previousExpiresAtUnixMs as number) + 1);
    // A renewal asked again may be answered twice: the later answer of a lease already renewed
    // past it changes nothing (the server's stored expiry only grows).
    if (expiry.atUnixMs < this.credentials.expiry.atUnixMs) return;
    this.credentials.renewed(expiry);
    this.scheduleRenewal(epoch);
  }

  /**
   * The server revoked the lease at `epoch`: as upstream's runner, this one stops at once, with no
   * reconnect (the lease no longer holds), and the run records the revocation.
   */
  private revoke(epoch: number): void {
    const revoked = leaseRevoked(epoch);
    this.revoked = revoked;
    this.renewal.cancel();
    this.open?.connection.close();
    this.deps.onFailure(revoked);
  }

  private scheduleRenewal(revocationEpoch: number): void {
    const renew = (expiresAtUnixMs: number): void => {
      const open = this.open;
      if (open === null || !open.welcome.renewsLease) return;
      const { welcome } = open;
      this.asked.push(expiresAtUnixMs);
      open.connection.send(
        controlEnvelope(
          this.deps.options.identity,
          welcome.version,
          "lease_renew",
          {
            connectionLeaseRevocationEpoch: revocationEpoch,
            connectionLeaseExpiresAtUnixMs: expiresAtUnixMs,
          },
          { connectionId: welcome.connectionId, connectionLeaseId: welcome.leaseId },
        ),
      );
    };
    // No renewal by the expiry (a stalled server, or a relay that swallows every frame and keeps
    // the socket open): the lease is spent, so the connection is closed and no reconnect follows.
    const lapse = (): void => {
      this.lapsed = true;
      this.open?.connection.close();
    };
    this.renewal.schedule(this.credentials.expiry, renew, lapse);
  }
}
