import { setTimeout as delay } from "node:timers/promises";
import type WebSocket from "ws";
import type { DurableOptions } from "../durable-options.js";
import { acceptProvenServer } from "./accept-proven-server.js";
import { AuthenticatedConnection, RefusedBeforeChallenge, type Welcome } from "./authenticated-connection.js";
import type { HelloInput } from "./handshake.js";
import { LeaseCredentials } from "./lease-credentials.js";
import { leaseClock, leaseExpiry } from "./lease-expiry.js";
import { LeaseRenewal } from "./lease-renewal.js";
import { controlEnvelope } from "./prp-envelope.js";
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
  /** The open connection failed (a message that breaks the protocol). */
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

  /** Connects, and reconnects whenever the connection drops; rejects once it cannot (the lease lapsed, the grace ran out). */
  async run(): Promise<void> {
    const { reconnectDelayMs, reconnectGraceMs } = this.deps.options;
    let deadline = Number.POSITIVE_INFINITY;
    let attempts = 0;
    for (;;) {
      const credential = this.credentials.next(leaseClock());
      const lease = this.credentials.binding;
      attempts += 1;
      try {
        const connection = await this.authenticate({
          credential,
          lease,
          identity: this.deps.options.identity,
          runnerVersion: this.deps.options.runnerVersion,
          runnerDigest: this.deps.options.runnerDigest,
        });
        deadline = Number.POSITIVE_INFINITY;
        attempts = 0;
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
        if (this.lapsed) throw leaseExpired(this.credentials.expiry.atUnixMs);
        this.deps.log("connection closed; reconnecting with the connection lease");
      } catch (error) {
        if (this.lapsed) throw error;
        if (error instanceof RefusedBeforeChallenge) {
          this.credentials.checkRefusal();
        } else if (!isConnectError(error)) {
          throw error;
        }
        if (deadline === Number.POSITIVE_INFINITY) deadline = Date.now() + reconnectGraceMs;
      }
      if (Date.now() >= deadline) throw reconnectDeadline(attempts);
      await delay(reconnectDelayMs);
    }
  }

  /**
   * Dialled, the peer is the server the launcher named: its refusal counts. Listening, the peer
   * is whoever reached the port first, so only one that proves the credential counts.
   */
  private async authenticate(input: HelloInput): Promise<AuthenticatedConnection> {
    if (this.deps.options.endpoint.mode === "listen") {
      return await acceptProvenServer(
        (signal) => this.deps.dial(signal),
        input,
        this.deps.log,
        this.credentials.leaseInUse,
      );
    }
    return await AuthenticatedConnection.open(await this.deps.dial(), input);
  }

  /** Stops renewing the lease and closes the open connection, if any. */
  close(): void {
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
    this.scheduleRenewal(welcome.revocationEpoch);
    await this.deps.onWelcome(welcome);
  }

  /** A message on the connection `welcome` opened: a renewal keeps that welcome's lease epoch. */
  private onMessage(message: Record<string, unknown>, arrivedAtMs: number, welcome: Welcome): void {
    if (message.kind !== "lease_renewed") {
      this.deps.onMessage(message);
      return;
    }
    const payload = (
      typeof message.payload === "object" && message.payload !== null ? message.payload : {}
    ) as Record<string, unknown>;
    // An expiry that is not a finite number (or none) is a bad frame: it used to be ignored, and
    // `1e400` (Infinity) would have been a lease that never lapses. All are checked before any
    // is taken up: a refused frame leaves the lease as it was.
    const expiry = leaseExpiry(message, payload, arrivedAtMs, "lease");
    const epoch = renewedRevocationEpoch(payload.connectionLeaseRevocationEpoch, welcome.revocationEpoch);
    checkRenewalAnswer(payload.previousExpiresAtUnixMs, this.credentials.expiry.atUnixMs);
    this.credentials.renewed(expiry);
    this.scheduleRenewal(epoch);
  }

  private scheduleRenewal(revocationEpoch: number): void {
    const renew = (expiresAtUnixMs: number): void => {
      const open = this.open;
      if (open === null) return;
      const { welcome } = open;
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
