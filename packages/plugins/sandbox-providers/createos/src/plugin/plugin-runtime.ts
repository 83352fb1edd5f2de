import { CreateosError } from "@paperclipai/errors";
import { CreateosClient } from "../client/createos-client.js";
import { PacerRegistry } from "../client/request-pacer.js";
import type { ExecuteTuning } from "../execute/execute.js";
import { LeaseRegistry } from "../lease/lease-registry.js";
import type { SandboxSpec } from "../lease/sandbox-api.js";
import { HOST_LIMITS, type HostLimits } from "./host-limits.js";
import { type CreateosConfig, requireConfig } from "./plugin-config.js";

/** Where the plugin tells the host's operator what it could not do (the SDK's `ctx.logger`). */
export interface RuntimeLogger {
  warn(message: string, meta?: Record<string, unknown>): void;
}

export interface PluginRuntimeOptions {
  /** Where `CREATEOS_API_KEY` is read from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  readonly fetch?: typeof fetch;
  /** The host's time limits (default `HOST_LIMITS`, those of Paperclip 2026.916.1); tests shorten them. */
  readonly hostLimits?: Partial<HostLimits>;
}

/** Kept free before the host's SIGTERM, for the last replies to reach it. */
const SHUTDOWN_MARGIN_MS = 1_500;

/** The state of one plugin instance: pacers, leases, and the shutdown switch. */
export class PluginRuntime {
  readonly pacers = new PacerRegistry();
  readonly leases = new LeaseRegistry();
  readonly #shutdown = new AbortController();
  readonly #exit = new AbortController();
  #stopping: Promise<void> | undefined;
  readonly #inflight = new Set<Promise<unknown>>();
  readonly #options: PluginRuntimeOptions;
  readonly hostLimits: HostLimits;
  /** Set by `setup` to the host's `ctx.logger`. */
  logger: RuntimeLogger | undefined;
  #shutdownStartedAt: number | undefined;

  constructor(options: PluginRuntimeOptions = {}) {
    this.#options = options;
    this.hostLimits = { ...HOST_LIMITS, ...options.hostLimits };
  }

  /** A warning for the host's log; a failing logger never fails the hook. */
  warn(message: string, meta?: Record<string, unknown>): void {
    try {
      this.logger?.warn(message, meta);
    } catch {
      // The log is best effort.
    }
  }

  /**
   * A cleanup deadline (epoch ms) `ms` from now, cut once shutdown has started so that it
   * ends inside the time the host gives the worker before its SIGTERM.
   */
  cleanupDeadline(ms: number): number {
    const wanted = Date.now() + ms;
    if (this.#shutdownStartedAt === undefined) return wanted;
    const cap = this.#shutdownStartedAt + this.hostLimits.shutdownMs - SHUTDOWN_MARGIN_MS;
    return Math.max(Date.now() + 1, Math.min(wanted, cap));
  }

  get env(): NodeJS.ProcessEnv {
    return this.#options.env ?? process.env;
  }

  get signal(): AbortSignal {
    return this.#shutdown.signal;
  }

  /**
   * Aborted only when shutdown's time is up (`cleanupDeadline`'s cap), not when shutdown starts:
   * for a sandbox create, whose answer must be read even during shutdown. CreateOS may have made
   * the sandbox already, and a create cut in flight leaves it running with an id no one learnt.
   */
  get exitSignal(): AbortSignal {
    return this.#exit.signal;
  }

  config(raw: Record<string, unknown> | undefined): CreateosConfig {
    return requireConfig(raw, this.env);
  }

  client(config: CreateosConfig): CreateosClient {
    return new CreateosClient({
      apiUrl: config.apiUrl,
      ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
      env: this.env,
      ...(this.#options.fetch === undefined ? {} : { fetch: this.#options.fetch }),
      pacers: this.pacers,
      rateLimit: { burst: config.burst, refillPerMinute: config.requestsPerMinute },
      backoff: { baseMs: config.backoffBaseMs, capMs: config.backoffCapMs, maxRetryAfterMs: 60_000 },
      requestTimeoutMs: config.requestTimeoutMs,
    });
  }

  tuning(config: CreateosConfig): Partial<ExecuteTuning> {
    return {
      reconnectAttempts: config.reconnectAttempts,
      stallTimeoutMs: config.heartbeatTimeoutMs,
      cleanupMs: (ms) => this.cleanupDeadline(ms) - Date.now(),
    };
  }

  spec(config: CreateosConfig): SandboxSpec {
    return { shape: config.shape, rootfs: config.rootfs, region: config.region };
  }

  /** Every hook runs through here: refused after shutdown, awaited by shutdown. */
  async hook<T>(work: () => Promise<T>): Promise<T> {
    if (this.#shutdown.signal.aborted) {
      throw new CreateosError("ERR_CREATEOS_SHUTTING_DOWN", "CreateOS plugin is shutting down.");
    }
    const promise = work();
    this.#inflight.add(promise);
    try {
      return await promise;
    } finally {
      this.#inflight.delete(promise);
    }
  }

  /**
   * Work a hook leaves running after its answer (the re-pause after a cut resume): shutdown
   * waits for it like a hook, until its time is up (`exitSignal`, which the work heeds).
   */
  detach(work: Promise<void>): void {
    const tracked = work.catch(() => undefined);
    this.#inflight.add(tracked);
    void tracked.finally(() => this.#inflight.delete(tracked));
  }

  /**
   * Aborts every active command and hook and waits for the commands' cleanup (their kills need
   * the sandboxes), then runs `alongside` while waiting for the hooks to settle: a hook may run
   * until shutdown's time is up (an acquire reading its create's answer), and what shutdown
   * itself must end cannot wait behind it. Runs once: a second call (the host stopping the
   * worker again) waits for the first, which would otherwise end the held leases twice at once
   * and clear the exit timer while the second still runs.
   */
  shutdown(alongside: () => Promise<void> = async () => {}): Promise<void> {
    this.#stopping ??= this.#stop(alongside);
    return this.#stopping;
  }

  async #stop(alongside: () => Promise<void>): Promise<void> {
    const reason = new CreateosError("ERR_CREATEOS_SHUTTING_DOWN", "CreateOS plugin is shutting down.");
    this.#shutdownStartedAt = Date.now();
    this.#shutdown.abort(reason);
    const exitTimer = setTimeout(
      () => this.#exit.abort(reason),
      this.cleanupDeadline(Number.POSITIVE_INFINITY) - Date.now(),
    );
    try {
      await this.leases.stopAll(reason);
      await Promise.allSettled([this.#settleInflight(), alongside()]);
    } finally {
      clearTimeout(exitTimer);
    }
  }

  /** Until no hook nor detached work is left, work a settling hook detached included. */
  async #settleInflight(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
  }
}
