import { CreateosError } from "@paperclipai/errors";
import { CreateosClient } from "../client/createos-client.js";
import { PacerRegistry } from "../client/request-pacer.js";
import type { ExecuteTuning } from "../execute/execute.js";
import { LeaseRegistry } from "../lease/lease-registry.js";
import type { SandboxSpec } from "../lease/sandbox-api.js";
import { type CreateosConfig, requireConfig } from "./plugin-config.js";

export interface PluginRuntimeOptions {
  /** Where `CREATEOS_API_KEY` is read from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  readonly fetch?: typeof fetch;
}

/** The state of one plugin instance: pacers, leases, and the shutdown switch. */
export class PluginRuntime {
  readonly pacers = new PacerRegistry();
  readonly leases = new LeaseRegistry();
  readonly #shutdown = new AbortController();
  readonly #inflight = new Set<Promise<unknown>>();
  readonly #options: PluginRuntimeOptions;

  constructor(options: PluginRuntimeOptions = {}) {
    this.#options = options;
  }

  get env(): NodeJS.ProcessEnv {
    return this.#options.env ?? process.env;
  }

  get signal(): AbortSignal {
    return this.#shutdown.signal;
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
    return { reconnectAttempts: config.reconnectAttempts, stallTimeoutMs: config.heartbeatTimeoutMs };
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

  /** Aborts every active command and hook, then waits for all of them to settle. */
  async shutdown(): Promise<void> {
    const reason = new CreateosError("ERR_CREATEOS_SHUTTING_DOWN", "CreateOS plugin is shutting down.");
    this.#shutdown.abort(reason);
    await this.leases.stopAll(reason);
    await Promise.allSettled([...this.#inflight]);
  }
}
