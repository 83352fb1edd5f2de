import { SandboxError } from "@paperclipai/errors";

export type LogStream = "stdout" | "stderr";

export interface LogDeliveryOptions {
  onLog: (stream: LogStream, chunk: string) => Promise<void>;
  /** Receives every failure of `onLog`; an exception it throws is swallowed. */
  report: (error: unknown, message: string) => void;
  /** How long one `onLog` call may stay unsettled before it is abandoned. */
  stallMs: number;
}

/**
 * Hands output to `onLog` one call at a time, in order. A call that throws or
 * rejects is reported and delivery goes on. A call that does not settle within
 * `stallMs` is abandoned: it is reported as `ERR_SANDBOX_LOG_CALLBACK_STALLED` and
 * `onLog` is not called again (a callback stuck once would stall every later chunk,
 * and calling it past the stuck one would break the order). So `drained()` always
 * settles, at most `stallMs` after the last delivery started.
 */
export class LogDelivery {
  readonly #options: LogDeliveryOptions;
  #chain: Promise<void> = Promise.resolve();
  #abandoned = false;

  constructor(options: LogDeliveryOptions) {
    this.#options = options;
  }

  /** Whether `onLog` stalled and is no longer called. */
  get abandoned(): boolean {
    return this.#abandoned;
  }

  /** Settles once this chunk was delivered, failed or abandoned (never rejects). */
  deliver(stream: LogStream, chunk: string): Promise<void> {
    this.#chain = this.#chain.then(() => this.#call(stream, chunk));
    return this.#chain;
  }

  /** Settles once every chunk handed over so far is done with. */
  drained(): Promise<void> {
    return this.#chain;
  }

  async #call(stream: LogStream, chunk: string): Promise<void> {
    if (this.#abandoned) return;
    const { onLog, stallMs } = this.#options;
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<"stalled">((resolve) => {
      timer = setTimeout(() => resolve("stalled"), stallMs);
    });
    try {
      const call = Promise.resolve()
        .then(() => onLog(stream, chunk))
        .then(() => "settled" as const);
      if ((await Promise.race([call, stalled])) === "stalled") {
        this.#abandoned = true;
        this.#report(
          new SandboxError(
            "ERR_SANDBOX_LOG_CALLBACK_STALLED",
            `onLog did not settle within ${stallMs} ms; it is not called again for this run.`,
            { details: { stream, stallMs } },
          ),
          `onLog stalled on a ${stream} chunk`,
        );
      }
    } catch (error) {
      this.#report(error, `failed to append ${stream} log chunk`);
    } finally {
      clearTimeout(timer);
    }
  }

  #report(error: unknown, message: string): void {
    try {
      this.#options.report(error, message);
    } catch {
      // A failing error reporter must not take the run down with it.
    }
  }
}
