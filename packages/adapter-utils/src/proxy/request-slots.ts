import type { ClientRequest, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** A plain-HTTP request's place among those a proxy serves at once. */
export interface RequestSlot {
  /** The request sent upstream for it: ended if the sandbox connection closes first. */
  carry(upstream: ClientRequest): void;
}

/**
 * The plain-HTTP requests a proxy serves at once, from its decision to the end of its
 * answer. Node's server hands over every request of a pipelined connection as soon as it
 * parses it, and reads on while none of their answers is written: without a bound, one
 * sandbox connection opened an upstream connection per request it wrote, or queued its
 * requests behind the name lookups without end. A slot is given back when its answer is
 * sent or closed, or when its sandbox connection closes: the answer of a pipelined request
 * that has not had its turn is neither (a connection closed for a malformed request after
 * it), and its upstream request is ended then, or it would hold a host descriptor until
 * `tunnelIdleMs` past the bound.
 */
export class RequestSlots {
  #taken = 0;
  readonly #byConnection = new WeakMap<Socket, Set<() => void>>();

  constructor(private readonly max: number) {}

  /** A slot for a request of `connection` answered by `response`, or `null` when all are taken. */
  take(connection: Socket, response: ServerResponse): RequestSlot | null {
    if (this.#taken >= this.max) return null;
    this.#taken += 1;
    const open = this.#openOf(connection);
    let upstream: ClientRequest | undefined;
    let given = false;
    const giveBack = () => {
      if (given) return;
      given = true;
      this.#taken -= 1;
      open.delete(onConnectionClose);
    };
    const onConnectionClose = () => {
      upstream?.destroy();
      giveBack();
    };
    open.add(onConnectionClose);
    response.once("finish", giveBack);
    // A response that closes unfinished ends its upstream request itself (forward-http.ts).
    response.once("close", giveBack);
    return { carry: (request) => (upstream = request) };
  }

  /** What to do for each unanswered request of `connection` when it closes. */
  #openOf(connection: Socket): Set<() => void> {
    const known = this.#byConnection.get(connection);
    if (known) return known;
    const open = new Set<() => void>();
    connection.once("close", () => {
      for (const onClose of [...open]) onClose();
    });
    this.#byConnection.set(connection, open);
    return open;
  }
}
