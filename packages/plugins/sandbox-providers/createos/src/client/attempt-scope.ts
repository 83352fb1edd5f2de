const TIMED_OUT = Symbol("timed out");

/**
 * The abort wiring of one request attempt: the caller's signal and the attempt's deadline
 * abort one controller, whose signal the transport gets. A reply read whole releases it at
 * once; a stream keeps following the caller's signal after its headers; a download keeps its
 * deadline, restarted by every chunk, until its body settles.
 */
export class AttemptScope {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #timer: NodeJS.Timeout;
  readonly #onCallerAbort = (): void => this.#controller.abort(this.#caller?.reason);

  constructor(caller: AbortSignal | undefined, timeoutMs: number) {
    this.#caller = caller;
    caller?.addEventListener("abort", this.#onCallerAbort, { once: true });
    // An abort that landed while the pacer was granting the start would not fire the listener.
    if (caller?.aborted) this.#controller.abort(caller.reason);
    this.#timer = setTimeout(() => this.#controller.abort(TIMED_OUT), timeoutMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True when the attempt's own deadline (not the caller) stopped it. */
  get timedOut(): boolean {
    return this.signal.aborted && this.signal.reason === TIMED_OUT;
  }

  /** Restarts the deadline: a chunk moved. */
  refresh(): void {
    this.#timer.refresh();
  }

  /** Ends the deadline only: a stream's body still follows the caller's signal. */
  stopDeadline(): void {
    clearTimeout(this.#timer);
  }

  /** Ends the deadline and unhooks the caller's signal. */
  release(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener("abort", this.#onCallerAbort);
  }

  /** Releases the scope and aborts the transport (a download whose body has settled). */
  close(): void {
    this.release();
    this.#controller.abort();
  }
}
