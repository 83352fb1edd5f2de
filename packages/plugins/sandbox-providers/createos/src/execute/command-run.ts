import { timerRangeMs } from "../client/timer-range.js";
import { cancelled } from "./command-failure.js";

const TIMED_OUT = Symbol("command timed out");

/**
 * The abort wiring of one command: the caller's signal (a cancellation) and the command's
 * timeout abort one controller, whose signal every call of the command gets.
 */
export class CommandRun {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #deadline: NodeJS.Timeout | undefined;
  readonly #onCancel = (): void => this.#controller.abort(this.#caller?.reason);

  /** Throws `ERR_CREATEOS_CANCELLED` when the caller has already aborted: nothing is sent. */
  constructor(caller: AbortSignal | undefined, timeoutMs: number | undefined) {
    if (caller?.aborted) throw cancelled(caller.reason);
    this.#caller = caller;
    caller?.addEventListener("abort", this.#onCancel, { once: true });
    this.#deadline =
      timeoutMs !== undefined && timeoutMs > 0
        ? // The host sends deadlines past a timer's range (the adapter's `timeoutSec * 1000`).
          setTimeout(() => this.#controller.abort(TIMED_OUT), timerRangeMs(timeoutMs))
        : undefined;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get timedOut(): boolean {
    return this.signal.aborted && this.signal.reason === TIMED_OUT;
  }

  get cancelled(): boolean {
    return this.signal.aborted && !this.timedOut;
  }

  /** The reason the caller gave for cancelling. */
  get cancelReason(): unknown {
    return this.#caller?.reason;
  }

  dispose(): void {
    if (this.#deadline !== undefined) clearTimeout(this.#deadline);
    this.#caller?.removeEventListener("abort", this.#onCancel);
  }
}
