import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";
import WebSocket, { WebSocketServer } from "ws";

/** Which way a frame travels through the relay. */
export type Direction = "to_server" | "to_runner";

/**
 * What the relay does with one frame: forward what `tamper` returns (nothing: the frame is
 * dropped; several: each is sent, in order). A tamper may also inject frames on its own with
 * `RelayedConnection.inject`.
 */
export type Tamper = (
  frame: string,
  direction: Direction,
  connection: RelayedConnection,
) => readonly string[];

/**
 * A man in the middle for durable mode's WebSocket: the runner dials the relay (plain ws:// on
 * loopback, as `--connect-url` allows), the relay dials the server and passes every text frame
 * through the current `tamper`, which can drop, duplicate, reorder, rewrite, delay or inject.
 * Every frame each side sent is recorded per connection, so an earlier session can be replayed
 * into a later one. A frame is relayed in order: a delayed frame holds back the ones after it.
 */
export interface MitmRelay {
  readonly url: string;
  /** Connections in the order the runner opened them. */
  readonly connections: readonly RelayedConnection[];
  /** The next connection the runner opens (already relayed), in order. */
  nextConnection(): Promise<RelayedConnection>;
  tamper: Tamper;
}

export const passThrough: Tamper = (frame) => [frame];

export class RelayedConnection {
  /** What each side sent on this connection, before tampering. */
  readonly sent: { readonly to_server: string[]; readonly to_runner: string[] } = {
    to_server: [],
    to_runner: [],
  };

  constructor(
    private readonly runnerSide: WebSocket,
    private readonly serverSide: WebSocket,
  ) {}

  /** Sends `frame` to one side as if the other had sent it. */
  inject(direction: Direction, frame: string): void {
    const socket = direction === "to_server" ? this.serverSide : this.runnerSide;
    if (socket.readyState === socket.OPEN) socket.send(frame);
  }

  /** Cuts both sides at once, as a network failure does. */
  cut(): void {
    this.runnerSide.terminate();
    this.serverSide.terminate();
  }
}

/** Starts the relay in front of `serverUrl`; it is closed after the current test. */
export async function mitmRelay(serverUrl: string): Promise<MitmRelay> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, maxPayload: 64 * 1024 * 1024 });
  await once(wss, "listening");
  const connections: RelayedConnection[] = [];
  const waiting: ((connection: RelayedConnection) => void)[] = [];
  let taken = 0;
  const relay: MitmRelay = {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/connect`,
    connections,
    tamper: passThrough,
    nextConnection: async () => {
      const index = taken++;
      return connections[index] ?? (await new Promise<RelayedConnection>((resolve) => waiting.push(resolve)));
    },
  };
  const upstreams = new Set<WebSocket>();
  wss.on("connection", (runnerSide) => {
    runnerSide.pause();
    const serverSide = new WebSocket(serverUrl, { maxPayload: 64 * 1024 * 1024 });
    upstreams.add(serverSide);
    const connection = new RelayedConnection(runnerSide, serverSide);
    const pass = (direction: Direction, data: WebSocket.RawData): void => {
      const frame = data.toString();
      connection.sent[direction].push(frame);
      for (const out of relay.tamper(frame, direction, connection)) connection.inject(direction, out);
    };
    runnerSide.on("message", (data) => pass("to_server", data));
    serverSide.on("message", (data) => pass("to_runner", data));
    runnerSide.on("close", () => serverSide.terminate());
    serverSide.on("close", () => runnerSide.terminate());
    runnerSide.on("error", () => undefined);
    serverSide.on("error", () => undefined);
    serverSide.on("open", () => {
      runnerSide.resume();
      connections.push(connection);
      const waiter = waiting.shift();
      waiter?.(connection);
    });
  });
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of upstreams) socket.terminate();
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  );
  return relay;
}
