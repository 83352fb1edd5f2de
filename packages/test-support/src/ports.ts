import { once } from "node:events";
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";

// No vitest here: the e2e harnesses that start servers use it outside a test's own hooks too.

async function listenOnLoopback(server: Server): Promise<number> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * `count` distinct loopback ports that were free a moment ago (the OS picks them; each is held
 * until all are picked). Nothing holds them afterwards: another process may bind one before the
 * caller's server does, which is why servers are started through `startOnFreePorts`.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const server = createServer();
      servers.push(server);
      ports.push(await listenOnLoopback(server));
    }
    return ports;
  } finally {
    await Promise.all(servers.map(closeServer));
  }
}

const ADDRESS_IN_USE = /EADDRINUSE|address already in use/i;

/**
 * Whether a failed start says a port it was given was in use: an `EADDRINUSE` error of Node's,
 * or one whose message (a server's log, say: Node's "listen EADDRINUSE", Postgres's "Address
 * already in use") or cause says so.
 */
export function portWasTaken(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && depth < 8; depth += 1) {
    if (typeof current === "string") return ADDRESS_IN_USE.test(current);
    if (typeof current !== "object" || current === null) return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (code === "EADDRINUSE" || (typeof message === "string" && ADDRESS_IN_USE.test(message))) return true;
    current = cause;
  }
  return false;
}

/** A tuple of `Count` ports (a plain array for a count not written out). */
export type Ports<Count extends number> = Count extends 1
  ? [number]
  : Count extends 2
    ? [number, number]
    : Count extends 3
      ? [number, number, number]
      : number[];

export interface StartOnFreePortsOptions<Count extends number> {
  /** How many distinct ports `start` gets: 1 by default. */
  readonly count?: Count;
  /** How many starts, each on new ports, before giving up: 3 by default. */
  readonly attempts?: number;
}

/**
 * `start(ports)` on free loopback ports. A port is free when picked, not held until `start`'s
 * server binds it: should another process take one in between, the start fails on that alone
 * (`portWasTaken`), and it is tried again on new ports, `attempts` times in all. Any other
 * failure is thrown at once. `start` must undo what it began before it throws.
 */
export async function startOnFreePorts<T, Count extends number = 1>(
  what: string,
  start: (ports: Ports<Count>) => Promise<T>,
  options: StartOnFreePortsOptions<Count> = {},
): Promise<T> {
  const attempts = options.attempts ?? 3;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new Error(`attempts must be at least 1: ${attempts}`);
  let lastTaken: unknown;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const ports = (await freePorts(options.count ?? 1)) as Ports<Count>;
    try {
      return await start(ports);
    } catch (error) {
      if (!portWasTaken(error)) throw error;
      lastTaken = error;
    }
  }
  throw new Error(
    `${what}: a port picked for it was taken before it bound it, on each of ${attempts} attempts`,
    { cause: lastTaken },
  );
}

/** A loopback port that refuses connections and that nothing else can bind until `close()`. */
export interface RefusedPort {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * A loopback port with nothing listening on it, held so that nothing can start listening there
 * in the meantime: the local end of a connection this process keeps open to itself (the
 * listener it connected to is closed at once). A connection to the port is refused (no socket
 * listens there), and no other socket can bind it while the connection is open; a port picked,
 * closed and assumed free could be taken before the test connects. `close()` ends the connection.
 */
export async function refusedPort(): Promise<RefusedPort> {
  const listener = createServer();
  const accepted = once(listener, "connection") as Promise<[Socket]>;
  const listenerPort = await listenOnLoopback(listener);
  const local = connect(listenerPort, "127.0.0.1");
  let remote: Socket | undefined;
  try {
    await once(local, "connect");
    [remote] = await accepted;
  } finally {
    // Stops listening at once; its callback would wait for the connection kept below to end.
    listener.close();
  }
  local.on("error", () => undefined);
  remote.on("error", () => undefined);
  const port = local.localPort as number;
  const held = remote;
  return {
    port,
    close: async () => {
      const closed = [local, held].map((socket) =>
        socket.closed ? Promise.resolve() : once(socket, "close"),
      );
      local.destroy();
      held.destroy();
      await Promise.all(closed);
    },
  };
}
