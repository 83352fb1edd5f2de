import type WebSocket from "ws";
import { type ConnectionEnvelope, checkControlEnvelope } from "./control-envelope.js";
import { type AuthHello, authHello, type HelloInput, sessionKeys, verifyChallenge } from "./handshake.js";
import { Inbox } from "./handshake-inbox.js";
import { leaseClock } from "./lease-expiry.js";
import { frameInvalid, parseFrameJson, SecureChannel } from "./secure-channel.js";
import { readWelcome, type Welcome } from "./welcome.js";

export type { Welcome } from "./welcome.js";

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
   * the server's; before it, the peer may be anyone who reached the socket. Aborting `signal`
   * closes the socket, and the handshake rejects as on a close.
   */
  static async open(
    socket: WebSocket,
    input: HelloInput,
    hooks: { readonly onServerProven?: () => void; readonly signal?: AbortSignal } = {},
  ): Promise<AuthenticatedConnection> {
    const inbox = new Inbox(socket);
    const { signal } = hooks;
    const withdraw = (): void => socket.terminate();
    signal?.addEventListener("abort", withdraw, { once: true });
    try {
      if (signal?.aborted) withdraw();
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
    } finally {
      signal?.removeEventListener("abort", withdraw);
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

function parseJson(text: string): unknown {
  return parseFrameJson(text, "the message is not JSON");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
