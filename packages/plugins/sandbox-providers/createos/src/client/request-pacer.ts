import { createHash } from "node:crypto";
import { timerRangeMs } from "./timer-range.js";
import {
  after429,
  afterAnswer,
  DEFAULT_TOKEN_BUCKET,
  initialBucket,
  type TokenBucketConfig,
  type TokenBucketState,
  takeToken,
} from "./token-bucket.js";

/** Cleanup calls (process kill, sandbox delete) start before every queued normal call. */
export type PacerPriority = "normal" | "cleanup";

interface Waiter {
  readonly priority: PacerPriority;
  readonly resolve: () => void;
  readonly reject: (reason: unknown) => void;
  readonly detach: () => void;
}

/** Paces request starts of one origin and key through a token bucket; waits are abortable. */
export class RequestPacer {
  readonly #config: TokenBucketConfig;
  readonly #now: () => number;
  #state: TokenBucketState;
  #waiters: Waiter[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(config: TokenBucketConfig = DEFAULT_TOKEN_BUCKET, now: () => number = Date.now) {
    this.#config = config;
    this.#now = now;
    this.#state = initialBucket(config, now());
  }

  /** Resolves when the request may start; rejects with the signal's reason when aborted while queued. */
  acquire(priority: PacerPriority = "normal", signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiters = this.#waiters.filter((waiter) => waiter !== entry);
        reject(signal?.reason);
        this.#schedule();
      };
      const entry: Waiter = {
        priority,
        resolve,
        reject,
        detach: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      if (priority === "cleanup") {
        const firstNormal = this.#waiters.findIndex((waiter) => waiter.priority === "normal");
        this.#waiters.splice(firstNormal === -1 ? this.#waiters.length : firstNormal, 0, entry);
      } else {
        this.#waiters.push(entry);
      }
      this.#pump();
    });
  }

  /** Feeds an answer back: a 429 slows the pacer down, anything else lets it recover. */
  observe(status: number, retryAfterMs?: number): void {
    this.#state =
      status === 429
        ? after429(this.#state, this.#config, this.#now(), retryAfterMs)
        : afterAnswer(this.#state);
    if (status === 429) this.#reschedule();
  }

  /** Number of calls waiting for a start, for health reports. */
  get queued(): number {
    return this.#waiters.length;
  }

  #pump(): void {
    while (this.#waiters.length > 0) {
      const result = takeToken(this.#state, this.#config, this.#now());
      this.#state = result.state;
      if (!result.granted) {
        this.#arm(result.waitMs);
        return;
      }
      const waiter = this.#waiters.shift()!;
      waiter.detach();
      waiter.resolve();
    }
    this.#disarm();
  }

  #schedule(): void {
    if (this.#waiters.length === 0) this.#disarm();
  }

  #reschedule(): void {
    this.#disarm();
    if (this.#waiters.length > 0) this.#pump();
  }

  #arm(waitMs: number): void {
    if (this.#timer !== undefined) return;
    // A wait past a timer's range would fire after 1 ms, and re-arm: a busy loop.
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#pump();
    }, timerRangeMs(waitMs));
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** One pacer per origin and API key, shared by every client of a plugin instance. */
export class PacerRegistry {
  readonly #pacers = new Map<string, RequestPacer>();
  readonly #config: TokenBucketConfig;

  constructor(config: TokenBucketConfig = DEFAULT_TOKEN_BUCKET) {
    this.#config = config;
  }

  get(origin: string, apiKey: string, config: TokenBucketConfig = this.#config): RequestPacer {
    // The map key holds a digest, so the registry never keeps a second copy of the key.
    const digest = createHash("sha256").update(apiKey).digest("hex").slice(0, 32);
    const key = `${origin} ${digest} ${config.burst}/${config.refillPerMinute}`;
    let pacer = this.#pacers.get(key);
    if (pacer === undefined) {
      pacer = new RequestPacer(config);
      this.#pacers.set(key, pacer);
    }
    return pacer;
  }
}
