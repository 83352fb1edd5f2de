import { RunnerError } from "@paperclipai/errors";
import type WebSocket from "ws";
import { leaseClock } from "./lease-expiry.js";
import { closedAfterProof } from "./refused-client-proof.js";
import { frameInvalid, parseFrameJson } from "./secure-channel.js";

/** The connection closed before the server sent its challenge: it refused the credential (or was not there). */
export class RefusedBeforeChallenge extends Error {}

/** How long the server has to answer each handshake step. */
export const HANDSHAKE_STEP_TIMEOUT_MS = 5_000;

/**
 * The largest `auth_challenge` read: the server's is under a kilobyte. In listen mode anyone who
 * reaches the port is greeted with a hello and may answer it with a frame of up to 4 MiB, which
 * took tens of milliseconds of the runner's loop to decode and parse: a flood of them slowed the
 * server's handshake beside them. A larger answer is refused by its size alone.
 */
export const MAX_CHALLENGE_BYTES = 64 * 1024;

/** A message as it arrived: its bytes, decoded only when read, and when (on `leaseClock()`: a lease is counted from it). */
export interface Arrived {
  readonly bytes: Buffer;
  readonly isBinary: boolean;
  readonly arrivedAtMs: number;
}

/** Handshake messages, in order, before the connection is handed to its listener. */
export class Inbox {
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

function parseJson(text: string): unknown {
  return parseFrameJson(text, "the message is not JSON");
}
