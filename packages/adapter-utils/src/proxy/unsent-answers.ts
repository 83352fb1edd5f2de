import type { EventEmitter } from "node:events";

/**
 * The answers of one sandbox connection that are not sent yet, at most `max` of them.
 *
 * Node's HTTP server parses a whole read (64 KiB) at once and makes a request and an
 * answer object for every pipelined request in it (about 3 KiB of heap each); an answer
 * whose turn has not come, or that the client never reads, stays queued on its
 * connection. A program that wrote 64 KiB of tiny requests on each of its connections
 * and read nothing held over 1,000 such pairs per connection in the host process: 200
 * connections took the proxy past 700 MiB of heap, within `maxConnections`, and a host
 * with a smaller heap ended with "JavaScript heap out of memory". `admit` says whether a
 * new request of `connection` still fits; the caller closes a connection that does not,
 * which frees everything queued on it.
 */
export class UnsentAnswers {
  readonly #byConnection = new WeakMap<object, Set<EventEmitter>>();

  constructor(private readonly max: number) {}

  /** Whether `connection` has as many unsent answers as it may: its next request is one too many. */
  full(connection: object): boolean {
    return (this.#byConnection.get(connection)?.size ?? 0) >= this.max;
  }

  /** Counts `answer` until it is sent or closed; `false` (and nothing counted) past the bound. */
  admit(connection: object, answer: EventEmitter): boolean {
    let unsent = this.#byConnection.get(connection);
    if (!unsent) {
      unsent = new Set();
      this.#byConnection.set(connection, unsent);
    }
    if (unsent.size >= this.max) return false;
    const pending = unsent;
    pending.add(answer);
    const settle = () => pending.delete(answer);
    answer.once("finish", settle);
    answer.once("close", settle);
    return true;
  }
}
