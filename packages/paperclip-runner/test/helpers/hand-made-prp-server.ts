import { randomUUID } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";
import type WebSocket from "ws";
import { WebSocketServer } from "ws";
import {
  grantedLease,
  type LeaseGrant,
  rememberGrant,
  sessionKeys,
  signedChallenge,
} from "./hand-made-handshake.js";
import { HAND_MADE_IDENTITY } from "./hand-made-identity.js";
import { openFrame, type SessionKeys, sealFrame } from "./server-secure-frames.js";

/**
 * A PRP server written by hand for hostile tests: it speaks the handshake and the secure frames
 * correctly (the server side of `src/durable/transport`), and lets a test break any step of it
 * (a wrong proof, raw text, a replayed counter, an ack for events never sent...). It is a
 * WebSocket server on loopback; each connection the runner opens is handed to the test in order.
 */
export interface HandMadeServer {
  readonly url: string;
  /** The next connection the runner opens (already accepted), in order. */
  nextConnection(): Promise<PeerConnection>;
  /** The connections that arrived and were not taken yet, taken now (none waited for). */
  takeArrived(): PeerConnection[];
  close(): Promise<void>;
}

/**
 * Starts the server on a kernel-picked loopback port; it is closed after the current test.
 * `clockOffsetMs`: how far the server's clock is from this machine's (its `sentAt` and the lease
 * expiries it grants are shifted by it, as a server on another machine writes them).
 */
export async function handMadeServer(
  options: { readonly clockOffsetMs?: number } = {},
): Promise<HandMadeServer> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, maxPayload: 64 * 1024 * 1024 });
  await once(wss, "listening");
  const arrived: PeerConnection[] = [];
  const waiting: ((connection: PeerConnection) => void)[] = [];
  wss.on("connection", (socket) => {
    const connection = new PeerConnection(socket, options.clockOffsetMs ?? 0);
    const waiter = waiting.shift();
    if (waiter !== undefined) waiter(connection);
    else arrived.push(connection);
  });
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => {
      for (const client of wss.clients) client.terminate();
      wss.close(() => resolve());
    });
  onTestFinished(close);
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/connect`,
    nextConnection: async () =>
      arrived.shift() ?? (await new Promise<PeerConnection>((resolve) => waiting.push(resolve))),
    takeArrived: () => arrived.splice(0),
    close,
  };
}

/** One connection the runner opened: raw access, and the server's side of the protocol on demand. */
export class PeerConnection {
  /** Plain messages before the handshake completes. */
  private readonly plain: string[] = [];
  /** Every secure message the runner sent on this connection, decrypted, in order (never consumed). */
  readonly received: Record<string, unknown>[] = [];
  private readonly changed = new Set<() => void>();
  private keys: SessionKeys | null = null;
  private sendCounter = 0n;
  private receiveCounter = 0n;
  private readonly connectionId = `connection_${randomUUID()}`;
  /** The lease this connection's handshake authenticated with, or granted in its welcome; null before. */
  private lease: LeaseGrant | null = null;
  /** The PRP version the challenge selected, and the lease id the welcome named: every later envelope names both. */
  private version: unknown = 2;
  private leaseId: unknown = "lease-1";
  readonly closed: Promise<void>;
  private isClosed = false;

  constructor(
    readonly socket: WebSocket,
    /** How far this server's clock is from this machine's. */
    private readonly clockOffsetMs = 0,
  ) {
    socket.on("message", (data) => {
      const text = data.toString();
      if (this.keys === null) this.plain.push(text);
      else this.received.push(this.open(text));
      this.notify();
    });
    this.closed = new Promise((resolve) => {
      socket.on("close", () => {
        this.isClosed = true;
        this.notify();
        resolve();
      });
    });
    socket.on("error", () => undefined);
  }

  /** The time on this server's clock, as its `sentAt` and lease expiries read it. */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  get isOpen(): boolean {
    return !this.isClosed;
  }

  /** Resolves with `check()`'s first non-null value, re-checked on every message; null once closed first. */
  private async until<T>(check: () => T | null): Promise<T | null> {
    for (;;) {
      const value = check();
      if (value !== null) return value;
      if (this.isClosed) return null;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.changed.delete(wake);
          resolve();
        };
        this.changed.add(wake);
      });
    }
  }

  private notify(): void {
    for (const wake of [...this.changed]) wake();
  }

  /** The next plain (handshake) message the runner sent; null once the connection closed. */
  async nextPlain(): Promise<string | null> {
    return await this.until(() => this.plain.shift() ?? null);
  }

  sendRaw(data: string | Buffer, options: { binary?: boolean } = {}): void {
    this.socket.send(data, { binary: options.binary === true });
  }

  /** Answers the runner's `auth_hello` as the server holding `ticket` does; `change` edits the challenge before it is proven. */
  async handshake(
    ticket: string,
    change: (challenge: Record<string, unknown>) => void = () => undefined,
  ): Promise<Record<string, unknown>> {
    const helloText = await this.nextPlain();
    if (helloText === null) throw new Error("the runner closed before its auth_hello");
    const hello = JSON.parse(helloText) as { payload: Record<string, unknown> };
    this.lease = grantedLease(ticket);
    const { canonical, serverProof, text } = signedChallenge(hello, ticket, { change, nowMs: this.now() });
    this.version = (JSON.parse(canonical) as { selectedVersion?: unknown }).selectedVersion;
    this.sendRaw(text);
    const responseText = await this.nextPlain();
    if (responseText === null) throw new Error("the runner closed instead of answering the challenge");
    const response = JSON.parse(responseText) as { payload: { clientProof: string } };
    this.keys = sessionKeys(ticket, canonical, serverProof, response.payload.clientProof);
    return hello;
  }

  /**
   * Sends the `welcome` (nothing acknowledged, no command), `payload` merged over it: after a ticket
   * handshake it grants a lease that lasts a minute, after a lease handshake it continues that lease.
   */
  welcome(payload: Record<string, unknown> = {}): void {
    this.sendRaw(this.welcomeFrame(payload));
  }

  /** The sealed `welcome` of `welcome()`, to send later or together with other frames. */
  welcomeFrame(payload: Record<string, unknown> = {}): string {
    return this.seal(this.welcomeMessage(payload));
  }

  /** The `welcome` message of `welcome()`, before it is sealed, its envelope complete as the server's. */
  welcomeMessage(payload: Record<string, unknown> = {}): Record<string, unknown> {
    const lease =
      this.lease === null
        ? {
            connectionLeaseId: "lease-1",
            connectionLeaseToken: `lease_${randomUUID()}`,
            connectionLeaseExpiresAtUnixMs: this.now() + 60_000,
            connectionLeaseRevocationEpoch: 0,
          }
        : {
            connectionLeaseId: this.lease.leaseId,
            connectionLeaseExpiresAtUnixMs: this.lease.expiresAtUnixMs,
            connectionLeaseRevocationEpoch: this.lease.revocationEpoch,
          };
    const merged: Record<string, unknown> = {
      selectedVersion: 2,
      heartbeatIntervalMs: 250,
      connectionLeaseRenewalVersion: 1,
      ...lease,
      maxFrameBytes: 1024 * 1024,
      maxBatchEvents: 100,
      ackedSourceSeq: 0,
      pendingCommands: [],
      ...payload,
    };
    this.leaseId = merged.connectionLeaseId;
    if (typeof merged.connectionLeaseToken === "string") {
      this.lease = {
        leaseId: merged.connectionLeaseId,
        revocationEpoch: merged.connectionLeaseRevocationEpoch,
        expiresAtUnixMs: merged.connectionLeaseExpiresAtUnixMs,
      };
      rememberGrant(merged.connectionLeaseToken, this.lease);
    }
    return {
      kind: "welcome",
      ...HAND_MADE_IDENTITY,
      connectionId: this.connectionId,
      connectionLeaseId: merged.connectionLeaseId,
      payload: merged,
    };
  }

  /** The expiry of the lease this connection holds (the welcome's, or the last grant's): a `lease_renewed` names it back. */
  get leaseExpiry(): unknown {
    return this.lease?.expiresAtUnixMs;
  }

  /** Waits for the runner's `lease_renew`: the expiry it asks to renew. */
  async renewalAsked(): Promise<number> {
    const renew = await this.waitFor((message) => message.kind === "lease_renew");
    if (renew === null) throw new Error("the runner closed before renewing its lease");
    return (renew.payload as { connectionLeaseExpiresAtUnixMs: number }).connectionLeaseExpiresAtUnixMs;
  }

  /** Sends `lease_renewed` with the fields as given, however wrong: the renewal a test answers. */
  answerRenewal(previousExpiresAtUnixMs: number | undefined, connectionLeaseExpiresAtUnixMs: number): void {
    this.send({
      kind: "lease_renewed",
      payload: { previousExpiresAtUnixMs, connectionLeaseExpiresAtUnixMs, connectionLeaseRevocationEpoch: 0 },
    });
  }

  /**
   * Sends `lease_renewed` granting the lease for `lengthMs` from now on this server's clock (its
   * `sentAt` and expiry read the same instant, so the runner is given exactly `lengthMs`);
   * returns the expiry granted, which the runner's next `lease_renew` names.
   */
  grantLease(lengthMs: number): number {
    const sentAt = this.now();
    const expiresAtUnixMs = sentAt + lengthMs;
    const previousExpiresAtUnixMs = this.leaseExpiry;
    if (this.lease !== null) this.lease.expiresAtUnixMs = expiresAtUnixMs;
    this.send({
      kind: "lease_renewed",
      sentAt: new Date(sentAt).toISOString(),
      payload: {
        previousExpiresAtUnixMs,
        connectionLeaseExpiresAtUnixMs: expiresAtUnixMs,
        connectionLeaseRevocationEpoch: 0,
      },
    });
    return expiresAtUnixMs;
  }

  /**
   * A message sealed as the server seals it, stamped with this server's `sentAt` unless it names
   * its own (`sentAt: undefined` leaves it out); `counter` overrides the next counter, which then
   * does not advance.
   */
  seal(message: Record<string, unknown>, counter?: bigint): string {
    return this.sealText(this.messageText(message), counter);
  }

  /** `message` sealed with its JSON text edited first: for values `JSON.stringify` cannot write (`1e400`). */
  sealEdited(message: Record<string, unknown>, edit: (text: string) => string): string {
    return this.sealText(edit(this.messageText(message)));
  }

  private messageText(message: Record<string, unknown>): string {
    // The envelope the server stamps on every message (`#controlEnvelope`): this connection's.
    return JSON.stringify({
      protocol: "paperclip.runner",
      version: this.version,
      ...HAND_MADE_IDENTITY,
      connectionId: this.connectionId,
      connectionLeaseId: this.leaseId,
      sentAt: new Date(this.now()).toISOString(),
      ...message,
    });
  }

  /** `text` sealed as is, as `seal` seals a message: for plaintexts `JSON.stringify` cannot make (nested too deep). */
  sealText(text: string, counter?: bigint): string {
    const frame = sealFrame(this.requireKeys(), counter ?? this.sendCounter, text);
    if (counter === undefined) this.sendCounter += 1n;
    return frame;
  }

  send(message: Record<string, unknown>): void {
    this.sendRaw(this.seal(message));
  }

  /** Sends sealed frames in one TCP write, so the runner reads them in one go (as a busy server's often arrive). */
  sendTogether(frames: readonly string[]): void {
    const tcp = (this.socket as unknown as { _socket: import("node:net").Socket })._socket;
    tcp.cork();
    for (const frame of frames) this.sendRaw(frame);
    process.nextTick(() => tcp.uncork());
  }

  /** The wire form of a `paperclip.prp.command.v1` (an empty payload and an issue time unless given). */
  static command(command: {
    commandId: string;
    controllerSeq: number;
    type: string;
    payload?: Record<string, unknown>;
  }): Record<string, unknown> {
    return {
      schema: "paperclip.prp.command.v1",
      issuedAt: "2026-01-01T00:00:00.000Z",
      payload: {},
      ...command,
    };
  }

  /** Delivers one command in a `command` message. */
  sendCommand(command: Parameters<typeof PeerConnection.command>[0]): void {
    this.send({ kind: "command", payload: PeerConnection.command(command) });
  }

  /** The first received message (from the start of the connection) that matches; null once closed without one. */
  async waitFor(
    match: (message: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown> | null> {
    return await this.until(() => this.received.find(match) ?? null);
  }

  /** The events received so far, in order. */
  events(): Record<string, unknown>[] {
    return this.received
      .filter((message) => message.kind === "event")
      .map((message) => message.payload as Record<string, unknown>);
  }

  /** Waits until the event of `sourceSeq` has arrived (null: closed first). */
  async eventThrough(sourceSeq: number): Promise<Record<string, unknown> | null> {
    const message = await this.waitFor(
      (candidate) =>
        candidate.kind === "event" && (candidate.payload as { sourceSeq?: unknown }).sourceSeq === sourceSeq,
    );
    return message === null ? null : (message.payload as Record<string, unknown>);
  }

  /** Every `command_result` received so far for `commandId`. */
  resultsOf(commandId: string): Record<string, unknown>[] {
    return this.received
      .filter(
        (message) =>
          message.kind === "command_result" &&
          (message.payload as { commandId?: unknown }).commandId === commandId,
      )
      .map((message) => message.payload as Record<string, unknown>);
  }

  /** Waits for the `count`th `command_result` of `commandId` (null: closed first). */
  async resultOf(commandId: string, count = 1): Promise<Record<string, unknown> | null> {
    return await this.until(() => this.resultsOf(commandId)[count - 1] ?? null);
  }

  ack(ackedSourceSeq: unknown): void {
    this.send({ kind: "ack", payload: { ackedSourceSeq } });
  }

  close(): void {
    this.socket.terminate();
  }

  private open(text: string): Record<string, unknown> {
    const message = openFrame(this.requireKeys(), this.receiveCounter, text);
    this.receiveCounter += 1n;
    return message;
  }

  private requireKeys(): SessionKeys {
    if (this.keys === null) throw new Error("no handshake yet");
    return this.keys;
  }
}
