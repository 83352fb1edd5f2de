import { PaperclipError } from "@paperclipai/errors";
import type WebSocket from "ws";
import { timerAt } from "../../timers/timer-at.js";
import { AuthenticatedConnection } from "./authenticated-connection.js";
import type { HelloInput } from "./handshake.js";
import { type LeaseExpiry, leaseClock } from "./lease-expiry.js";
import { leaseExpired } from "./transport-failure.js";
import { releaseBoundBeforeProof } from "./upgrade-listener.js";

/**
 * Handshakes in flight at once; past it the oldest whose peer has not proven itself is closed, so
 * the newest connection gets its turn and the server's handshake is never the one cut short.
 */
export const MAX_CONCURRENT_HANDSHAKES = 64;

/**
 * Listen mode: the first connection whose peer proves it holds the credential (a valid
 * server proof for this hello) and completes the handshake. Whoever reaches the listening
 * port opens a connection (on loopback, any local user), so a peer is nobody until it proves
 * itself: one that sends garbage, a wrong proof, closes or stays silent is dropped and the
 * runner goes on accepting (it neither ends the run nor counts against the reconnect grace).
 * Every connection is handshaken as soon as it arrives, beside the others: a silent peer
 * cannot make the server connected behind it wait for its handshake to time out.
 *
 * Rejects with the failure of a peer that had proven itself (it is the server), when no
 * connection can be taken any more, when `signal` is aborted, or once the lease in use lapses
 * (`ERR_RUNNER_DURABLE_LEASE_EXPIRED`): a server that no longer knows the lease refuses it
 * by closing, which cannot be told from an impostor's close, so the lease's own end is what
 * stops the wait.
 */
export async function acceptProvenServer(
  next: (signal: AbortSignal) => Promise<WebSocket>,
  input: HelloInput,
  log: (line: string) => void,
  lease: LeaseExpiry | null = null,
  /** Aborted: the wait is withdrawn, every handshake under way closed, and the promise rejects with its reason. */
  signal?: AbortSignal,
): Promise<AuthenticatedConnection> {
  const stop = new AbortController();
  // Insertion order: the first is the oldest handshake. `proven`: its peer has shown the server proof.
  const handshaking = new Map<WebSocket, { proven: boolean }>();
  let dropped = 0;
  let firstDrop: string | null = null;
  let settled = false;
  let settle!: { resolve: (connection: AuthenticatedConnection) => void; reject: (error: unknown) => void };
  const outcome = new Promise<AuthenticatedConnection>((resolve, reject) => {
    settle = { resolve, reject };
  });

  const handshake = (socket: WebSocket): void => {
    if (handshaking.size >= MAX_CONCURRENT_HANDSHAKES) {
      // Only a peer that has not proven itself makes room: the server's handshake is never cut short.
      const oldest = [...handshaking].find(([, state]) => !state.proven)?.[0];
      if (oldest === undefined) {
        socket.terminate();
        return;
      }
      handshaking.delete(oldest);
      oldest.terminate();
    }
    const state = { proven: false };
    handshaking.set(socket, state);
    const onServerProven = (): void => {
      state.proven = true;
      releaseBoundBeforeProof(socket);
    };
    AuthenticatedConnection.open(socket, input, { onServerProven }).then(
      (connection) => {
        handshaking.delete(socket);
        // A second peer that proved itself too is not needed: one connection serves the run.
        if (settled) {
          connection.close();
          return;
        }
        settled = true;
        settle.resolve(connection);
      },
      (error: unknown) => {
        handshaking.delete(socket);
        if (state.proven) {
          settled = true;
          settle.reject(error);
          return;
        }
        dropped += 1;
        firstDrop ??= PaperclipError.is(error) ? error.code : "the connection closed";
      },
    );
  };

  const lapse =
    lease === null
      ? null
      : timerAt(
          lease.lapsesAtMs,
          () => {
            settled = true;
            settle.reject(leaseExpired(lease.atUnixMs));
          },
          leaseClock,
        );

  const withdraw = (): void => {
    settled = true;
    settle.reject(signal?.reason);
  };
  signal?.addEventListener("abort", withdraw, { once: true });
  if (signal?.aborted) withdraw();

  void (async () => {
    // Settled (a connection taken, a failure, the wait withdrawn): no further connection is taken.
    while (!stop.signal.aborted && !settled) {
      let socket: WebSocket;
      try {
        socket = await next(stop.signal);
      } catch (error) {
        if (!stop.signal.aborted) {
          settled = true;
          settle.reject(error);
        }
        return;
      }
      if (stop.signal.aborted || settled) {
        socket.terminate();
        return;
      }
      // Closed while it waited to be taken (a peer that connected and left): its close has
      // already been emitted, so a handshake on it would only wait out the timeout.
      if (socket.readyState !== socket.OPEN) {
        dropped += 1;
        firstDrop ??= "the connection closed";
        continue;
      }
      handshake(socket);
    }
  })();

  try {
    return await outcome;
  } finally {
    signal?.removeEventListener("abort", withdraw);
    lapse?.cancel();
    stop.abort();
    for (const socket of handshaking.keys()) socket.terminate();
    handshaking.clear();
    // One line however many there were: a flood of impostors must not flood the launcher's log too.
    if (dropped > 0) {
      log(`dropped ${dropped} connection(s) whose peer did not prove the credential (first: ${firstDrop})`);
    }
  }
}
