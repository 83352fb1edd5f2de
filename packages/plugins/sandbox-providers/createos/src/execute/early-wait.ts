import type { CreateosClient } from "../client/createos-client.js";
import { refusesWaitRoute, WAIT_UNAVAILABLE, type WaitReply, waitForProcess } from "./process-api.js";

/**
 * Whether a `wait` reply settles the completeness check on its own: an exit (with the
 * journal's newest seq, or without it when the server leaves it out) or a server without
 * `wait`. A 408 (still running when it answered) tells nothing about the end.
 */
export function isExitEvidence(reply: WaitReply): boolean {
  return reply.exited || !reply.available;
}

/**
 * A `wait` sent together with the first connect, so that a command which exits while it is
 * followed needs no round trip after its exit frame: the evidence of completeness is already
 * on its way, or here. One attempt, never retried: when it fails (a refused route counts as
 * a server without `wait`, as for any `wait`), answers 408 (the command
 * ran longer than `timeoutMs`), or is still out `boundMs` after the exit frame, the follower
 * asks `wait` afresh, as it would without it.
 */
export class EarlyWait {
  readonly #controller = new AbortController();
  readonly #reply: Promise<WaitReply | undefined>;
  #settled = false;
  #answer: WaitReply | undefined;
  #spent = false;

  constructor(client: CreateosClient, sandboxId: string, processId: string, timeoutMs: number) {
    this.#reply = waitForProcess(client, sandboxId, processId, timeoutMs, this.#controller.signal, 1)
      .then(
        (reply) => (isExitEvidence(reply) ? reply : undefined),
        (error: unknown) => (refusesWaitRoute(error) ? WAIT_UNAVAILABLE : undefined),
      )
      .then((answer) => {
        this.#settled = true;
        this.#answer = answer;
        return answer;
      });
  }

  /**
   * Its reply when that is evidence, waiting at most `boundMs` (or until `signal` aborts) for
   * it; asked once, then spent.
   */
  async take(boundMs: number, signal: AbortSignal): Promise<WaitReply | undefined> {
    if (this.#spent) return undefined;
    this.#spent = true;
    // Usually it is already here: no timer then.
    if (this.#settled) return this.#answer;
    if (signal.aborted) return undefined;
    let timer: NodeJS.Timeout | undefined;
    let onAbort = (): void => {};
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), boundMs);
      onAbort = () => resolve(undefined);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([this.#reply, late]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      this.cancel();
    }
  }

  /** Stops it if it is still out (the command ended another way, or ran past the bound). */
  cancel(): void {
    if (!this.#settled) this.#controller.abort();
  }
}
