import { RunnerError } from "@paperclipai/errors";
import type WebSocket from "ws";
import { type ConnectionEnvelope, checkControlEnvelope } from "./control-envelope.js";
import { checkWelcomeExpiry } from "./credential-expiry.js";
import { type AuthHello, authHello, type HelloInput, sessionKeys, verifyChallenge } from "./handshake.js";
import { checkWelcomeLease } from "./lease-binding.js";
import { type LeaseExpiry, leaseClock, leaseExpiry } from "./lease-expiry.js";
import { revocationEpoch } from "./revocation-epoch.js";
import { frameInvalid, parseFrameJson, SecureChannel } from "./secure-channel.js";

/** The server's `welcome`, as this runner uses it. */
export interface Welcome {
  readonly version: number;
  readonly connectionId: string;
  readonly leaseId: string;
  /** Only in the welcome of a ticket handshake: the secret of the lease (kept in memory, never written). */
  readonly leaseToken: string | null;
  /** The lease's expiry, counted from the welcome's arrival (`lease-expiry.ts`). */
  readonly leaseExpiry: LeaseExpiry;
  readonly revocationEpoch: number;
  /**
   * The welcome names the lease renewal this runner speaks (`connectionLeaseRenewalVersion` 1): only
   * then is the lease renewed. Without it upstream's runner sends no `lease_renew` either, and the
   * lease lapses at its expiry.
   */
  readonly renewsLease: boolean;
  readonly ackedSourceSeq: number;
  readonly maxBatchEvents: number;
  readonly pendingCommands: readonly unknown[];
}

/** The connection closed before the server sent its challenge: it refused the credential (or was not there). */
export class RefusedBeforeChallenge extends Error {}

/** The batch window when a welcome names none (the server of 2026.916.1 always sends 100). */
const DEFAULT_MAX_BATCH_EVENTS = 100;

/** How long the server has to answer each handshake step. */
export const HANDSHAKE_STEP_TIMEOUT_MS = 5_000;

/**
 * The largest `auth_challenge` read: the server's is under a kilobyte. In listen mode anyone who
 * reaches the port is greeted with a hello and may answer it with a frame of up to 4 MiB, which
 * took tens of milliseconds of the runner's loop to decode and parse: a flood of them slowed the
 * server's handshake beside them. A larger answer is refused by its size alone.
 */
export const MAX_CHALLENGE_BYTES = 64 * 1024;

/**
 * One authenticated WebSocket connection: the handshake, then secure frames in
 * both directions. A frame that fails a check closes the connection; the error
 * is delivered to `onFailure` (coded: bad frame or counter out of order).
 */
export class AuthenticatedConnection {
  private constructor(
    private readonly socket: WebSocket,
    private readonly channel: SecureChannel,
    readonly welcome: Welcome,
    /** What every later server message must name at its top level (the welcome's). */
    private readonly envelope: ConnectionEnvelope,
    /** Still attached: what arrives (or closes) between the welcome and `listen` is kept for it. */
    private readonly inbox: Inbox,
  ) {}

  /**
   * Runs the handshake on `socket`. `onServerProven` is called once the peer's challenge carries
   * a valid server proof for this hello, before the challenge's other checks: from then on the
   * peer is known to hold the credential, and a failure (a challenge naming another lease, say) is
   * the server's; before it, the peer may be anyone who reached the socket.
   */
  static async open(
    socket: WebSocket,
    input: HelloInput,
    hooks: { readonly onServerProven?: () => void } = {},
  ): Promise<AuthenticatedConnection> {
    const inbox = new Inbox(socket);
    try {
      const hello: AuthHello = authHello(input);
      socket.send(JSON.stringify(hello.message));
      const { message: challengeMessage } = await inbox.next(true);
      const challenge = verifyChallenge(challengeMessage, hello, input, () => hooks.onServerProven?.());
      socket.send(JSON.stringify(challenge.response));
      const channel = new SecureChannel(sessionKeys(input.credential.authKey, challenge));
      const sealed = await inbox.next(false);
      const welcome = readWelcome(
        channel.open(sealed.message),
        challenge.selectedVersion,
        input,
        sealed.arrivedAtMs,
      );
      const envelope = {
        identity: input.identity,
        version: welcome.version,
        connectionId: welcome.connectionId,
        leaseId: welcome.leaseId,
      };
      // The inbox stays attached until `listen`: a frame the server sent right behind the welcome
      // (often read in the same chunk) or a close before then would otherwise be lost.
      return new AuthenticatedConnection(socket, channel, welcome, envelope, inbox);
    } catch (error) {
      inbox.release();
      socket.terminate();
      throw error;
    }
  }

  /**
   * Starts delivering server messages, decrypted, in order, each with when it arrived (on
   * `leaseClock()`). Must be called once, right after `open`.
   */
  listen(handlers: {
    readonly onMessage: (message: Record<string, unknown>, arrivedAtMs: number) => void;
    readonly onFailure: (error: unknown) => void;
    readonly onClose: () => void;
  }): void {
    let failed = false;
    const receive = (text: string, isBinary: boolean, arrivedAtMs: number): void => {
      // After a refused frame nothing more from this connection is applied.
      if (failed) return;
      try {
        if (isBinary) throw frameInvalid("the server sent a binary message", "binary");
        const message = this.channel.open(parseJson(text));
        if (!isRecord(message)) throw frameInvalid("the secure frame does not hold an object", "shape");
        checkControlEnvelope(message, this.envelope);
        handlers.onMessage(message, arrivedAtMs);
      } catch (error) {
        failed = true;
        this.close();
        handlers.onFailure(error);
      }
    };
    const { queued, closed } = this.inbox.handOver();
    this.socket.on("message", (data, isBinary) => receive(data.toString(), isBinary, leaseClock()));
    this.socket.on("close", () => handlers.onClose());
    this.socket.on("error", () => this.close());
    for (const message of queued) receive(message.bytes.toString(), message.isBinary, message.arrivedAtMs);
    if (closed) handlers.onClose();
  }

  send(message: Record<string, unknown>): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(JSON.stringify(this.channel.seal(message)));
  }

  close(): void {
    this.socket.terminate();
  }
}

/** A message as it arrived: its bytes, decoded only when read, and when (on `leaseClock()`: a lease is counted from it). */
interface Arrived {
  readonly bytes: Buffer;
  readonly isBinary: boolean;
  readonly arrivedAtMs: number;
}

/** Handshake messages, in order, before the connection is handed to its listener. */
class Inbox {
  private readonly messages: Arrived[] = [];
  private waiter: ((value: Arrived) => void) | null = null;
  private failure: ((error: unknown) => void) | null = null;
  private closed = false;
  private readonly onMessage = (data: WebSocket.RawData, isBinary: boolean): void => {
    // `nodebuffer`, ws's default binary type: every message is one Buffer.
    const arrived = { bytes: data as Buffer, isBinary, arrivedAtMs: leaseClock() };
    if (this.waiter !== null) {
      const resolve = this.waiter;
      this.waiter = null;
      resolve(arrived);
    } else this.messages.push(arrived);
  };
  private readonly onClose = (): void => {
    this.closed = true;
    this.failure?.(new RefusedBeforeChallenge("connection closed during the handshake"));
  };

  constructor(private readonly socket: WebSocket) {
    socket.on("message", this.onMessage);
    socket.on("close", this.onClose);
  }

  async next(plain: boolean): Promise<{ readonly message: unknown; readonly arrivedAtMs: number }> {
    const arrived = this.messages.shift() ?? (await this.wait(plain));
    if (plain && arrived.bytes.length > MAX_CHALLENGE_BYTES) {
      throw new RunnerError(
        "ERR_RUNNER_DURABLE_SERVER_PROOF",
        `durable handshake failed: the auth_challenge is larger than ${MAX_CHALLENGE_BYTES} bytes`,
        { details: { reason: "oversized" } },
      );
    }
    return { message: parseJson(arrived.bytes.toString()), arrivedAtMs: arrived.arrivedAtMs };
  }

  private wait(plain: boolean): Promise<Arrived> {
    if (this.closed) {
      return Promise.reject(
        plain ? new RefusedBeforeChallenge("connection closed during the handshake") : closedAfterProof(),
      );
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(frameInvalid("the server did not answer the handshake in time", "timeout")),
        HANDSHAKE_STEP_TIMEOUT_MS,
      );
      this.waiter = (value) => {
        clearTimeout(timer);
        resolve(value);
      };
      this.failure = (error) => {
        clearTimeout(timer);
        reject(plain ? error : closedAfterProof());
      };
    });
  }

  release(): void {
    this.socket.off("message", this.onMessage);
    this.socket.off("close", this.onClose);
  }

  /** Detaches, handing over what arrived since the handshake and whether the connection closed meanwhile. */
  handOver(): { readonly queued: readonly Arrived[]; readonly closed: boolean } {
    this.release();
    return { queued: this.messages.splice(0), closed: this.closed };
  }
}

/**
 * Whether `error` is the server's close after this runner's client proof (`closedAfterProof`).
 * On a lease reconnect the server closes so when the lease's record changed between its challenge
 * and the proof: a renewal the previous connection asked for, committed meanwhile. The next
 * handshake's challenge names the renewed lease, so it is worth another attempt.
 */
export function isRefusedClientProof(error: unknown): boolean {
  return (
    error instanceof RunnerError &&
    error.code === "ERR_RUNNER_DURABLE_SERVER_PROOF" &&
    (error.details as { reason?: unknown } | undefined)?.reason === "refused_client_proof"
  );
}

function closedAfterProof(): RunnerError {
  return new RunnerError(
    "ERR_RUNNER_DURABLE_SERVER_PROOF",
    "durable handshake failed: the server closed the connection instead of accepting the client proof",
    { details: { reason: "refused_client_proof" } },
  );
}

function readWelcome(message: unknown, version: number, input: HelloInput, arrivedAtMs: number): Welcome {
  if (!isRecord(message) || message.kind !== "welcome" || !isRecord(message.payload)) {
    throw frameInvalid("the first secure frame is not a welcome", "welcome");
  }
  const payload = message.payload;
  if (
    typeof message.connectionId !== "string" ||
    typeof payload.connectionLeaseId !== "string" ||
    typeof payload.connectionLeaseExpiresAtUnixMs !== "number" ||
    typeof payload.ackedSourceSeq !== "number"
  ) {
    throw frameInvalid("the welcome lacks its lease or acknowledged seq", "welcome");
  }
  // The welcome's envelope names the connection and lease its payload grants, for this run.
  checkControlEnvelope(message, {
    identity: input.identity,
    version,
    connectionId: message.connectionId,
    leaseId: payload.connectionLeaseId,
  });
  const expiry = leaseExpiry(message, payload, arrivedAtMs, "welcome");
  checkWelcomeExpiry(expiry, arrivedAtMs);
  const epoch = revocationEpoch("welcome", payload.connectionLeaseRevocationEpoch, "welcome");
  const leaseToken = payload.connectionLeaseToken;
  // The server spends a ticket on a lease and grants its token in that welcome (a lease
  // reconnect's welcome has none). Without one the ticket would stay in use for the next
  // connection: single use as the server keeps it, upstream's runner refuses such a welcome.
  const lease = input.lease;
  if (lease === null && (typeof leaseToken !== "string" || leaseToken === "")) {
    throw frameInvalid("the welcome of a ticket handshake grants no connection lease token", "welcome");
  }
  checkWelcomeLease(
    {
      leaseId: payload.connectionLeaseId,
      revocationEpoch: epoch,
      leaseToken: leaseToken === undefined ? null : (leaseToken as string | null),
    },
    lease,
  );
  const maxBatchEvents = payload.maxBatchEvents;
  if (
    maxBatchEvents !== undefined &&
    !(Number.isSafeInteger(maxBatchEvents) && (maxBatchEvents as number) > 0)
  ) {
    throw frameInvalid("the welcome's maxBatchEvents is not a positive integer", "welcome");
  }
  return {
    version,
    connectionId: message.connectionId,
    leaseId: payload.connectionLeaseId,
    leaseToken: typeof leaseToken === "string" ? leaseToken : null,
    leaseExpiry: expiry,
    revocationEpoch: epoch,
    renewsLease: payload.connectionLeaseRenewalVersion === 1,
    ackedSourceSeq: payload.ackedSourceSeq,
    maxBatchEvents: typeof maxBatchEvents === "number" ? maxBatchEvents : DEFAULT_MAX_BATCH_EVENTS,
    pendingCommands: Array.isArray(payload.pendingCommands) ? payload.pendingCommands : [],
  };
}

function parseJson(text: string): unknown {
  return parseFrameJson(text, "the message is not JSON");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
