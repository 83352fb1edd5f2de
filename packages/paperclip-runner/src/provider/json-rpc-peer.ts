import type { RunnerError } from "@paperclipai/errors";
import { MAX_JSON_NESTING, nestsDeeperThan } from "./json-nesting.js";
import {
  providerProtocol,
  providerRequestFailed,
  providerStartFailed,
  providerTimeout,
} from "./provider-errors.js";
import {
  type ProviderExit,
  ProviderProcess,
  type ProviderSpawnSpec,
  providerExitReason,
} from "./provider-process.js";

/** What the provider sends that is not an answer to the runner: handled in order, one at a time. */
export type ProviderInbound =
  | { readonly kind: "notification"; readonly method: string; readonly params: Record<string, unknown> }
  | {
      readonly kind: "request";
      readonly id: string | number;
      readonly method: string;
      readonly params: Record<string, unknown>;
    }
  /** The provider broke the protocol or stopped answering (the connection is unusable from here on). */
  | { readonly kind: "violation"; readonly error: RunnerError }
  | { readonly kind: "exit"; readonly exit: ProviderExit };

/** The most provider messages waiting to be handled (upstream's buffered message bound). */
export const MAX_QUEUED_MESSAGES = 1024;
/** The most bytes of provider messages waiting to be handled (upstream's 16 MiB aggregate bound). */
export const MAX_QUEUED_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * How long a provider's exit waits for the rest of its stdout (a grandchild holding the pipe
 * open must not hold the exit back).
 */
const OUTPUT_AFTER_EXIT_MS = 100;

function outputOrTimeout(ended: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return Promise.race([ended, elapsed]).finally(() => clearTimeout(timer));
}

interface Pending {
  readonly method: string;
  readonly resolve: (value: Record<string, unknown>) => void;
  readonly reject: (error: unknown) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * The runner's side of the app-server JSON-RPC over a provider's stdio: requests
 * with ids and a bounded wait, answers matched to them at once, and everything
 * else (notifications, server requests, protocol violations, the exit) handed to
 * `onInbound` in arrival order. Answers are not queued, so a handler that awaits
 * a request while later messages wait is how upstream's buffering works.
 */
export class JsonRpcPeer {
  readonly process: ProviderProcess;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private queued = 0;
  private queuedBytes = 0;
  /** Why the connection became unusable; every later request fails with it, not with a vaguer error. */
  private failure: RunnerError | undefined;

  constructor(
    spec: ProviderSpawnSpec,
    private readonly onInbound: (message: ProviderInbound) => Promise<void>,
    private readonly requestTimeoutMs: number,
  ) {
    this.process = new ProviderProcess(spec, {
      onLine: (line) => this.onLine(line),
      onOversized: (bytes) => this.violate(`a frame of ${bytes} bytes exceeds the 4 MiB limit`),
      onInvalidText: () => this.violate("a line is not UTF-8"),
    });
    void this.process.exited.then(async (exit) => {
      // What the provider wrote before it died (a turn/completed, an answer) is handled before its exit.
      await outputOrTimeout(this.process.outputEnded, OUTPUT_AFTER_EXIT_MS);
      this.rejectAll(providerStartFailed(providerExitReason(exit)));
      this.deliver({ kind: "exit", exit });
    });
  }

  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.process.hasExited) {
      return Promise.reject(providerStartFailed(`the provider is gone before ${method}`));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        const error = providerTimeout(method, this.requestTimeoutMs);
        reject(error);
        // A provider that stopped answering is not used any more: its session fails, its group is stopped.
        this.fail(error);
      }, this.requestTimeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      this.process.send({ id, method, params });
    });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.process.send(params === undefined ? { method } : { method, params });
  }

  respond(id: string | number, result: unknown): void {
    this.process.send({ id, result });
  }

  respondError(id: string | number, code: number, message: string): void {
    this.process.send({ id, error: { code, message } });
  }

  private onLine(line: string): void {
    if (this.failure !== undefined || line.trim() === "") return;
    if (nestsDeeperThan(line)) {
      this.violate(`a frame nests deeper than ${MAX_JSON_NESTING} levels`);
      return;
    }
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      this.violate("a line is not JSON");
      return;
    }
    if (message === null || typeof message !== "object" || Array.isArray(message)) {
      this.violate("a line is not a JSON-RPC object");
      return;
    }
    const { id, method } = message;
    if (typeof method === "string") {
      const params = (message.params ?? {}) as Record<string, unknown>;
      const bytes = Buffer.byteLength(line);
      if (id === undefined) this.deliver({ kind: "notification", method, params }, bytes);
      else if (typeof id === "string" || typeof id === "number")
        this.deliver({ kind: "request", id, method, params }, bytes);
      else this.violate("a request id is neither a string nor a number");
      return;
    }
    const pending = typeof id === "number" ? this.pending.get(id) : undefined;
    if (pending === undefined) {
      this.violate("an answer names no request the runner sent");
      return;
    }
    this.pending.delete(id as number);
    clearTimeout(pending.timer);
    const error = message.error as { code?: unknown; message?: unknown } | undefined;
    if (error !== undefined && error !== null) {
      pending.reject(
        providerRequestFailed(
          pending.method,
          typeof error.code === "number" ? error.code : null,
          typeof error.message === "string" ? error.message : "error",
        ),
      );
      return;
    }
    const result = message.result;
    pending.resolve(
      result !== null && typeof result === "object" ? (result as Record<string, unknown>) : { value: result },
    );
  }

  private violate(reason: string): void {
    this.fail(providerProtocol(reason));
  }

  /** The connection is unusable from here on: every request fails with `error`, then the violation is handled. */
  private fail(error: RunnerError): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    this.rejectAll(error);
    this.deliver({ kind: "violation", error });
  }

  private rejectAll(error: unknown): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.pending.delete(id);
      pending.reject(error);
    }
  }

  private chain: Promise<void> = Promise.resolve();

  /** Queues `message` (`bytes` long, for a notification or a request) to be handled after those before it. */
  private deliver(message: ProviderInbound, bytes = 0): void {
    if (message.kind === "notification" || message.kind === "request") {
      if (this.queued >= MAX_QUEUED_MESSAGES) {
        this.violate(`more than ${MAX_QUEUED_MESSAGES} provider messages are waiting`);
        return;
      }
      if (this.queuedBytes + bytes > MAX_QUEUED_MESSAGE_BYTES) {
        this.violate("the provider messages waiting exceed the 16 MiB aggregate limit");
        return;
      }
    }
    this.queued += 1;
    this.queuedBytes += bytes;
    // Once the provider broke the protocol, what it sent before is not handled any more: the violation is next.
    const stale = (): boolean =>
      this.failure !== undefined && (message.kind === "notification" || message.kind === "request");
    this.chain = this.chain
      .then(() => (stale() ? undefined : this.onInbound(message)))
      // A message the runner could not handle (whatever it held) must not vanish: the session fails on it.
      .catch(() => {
        if (message.kind === "notification" || message.kind === "request")
          this.violate(`the runner could not handle a ${message.method.slice(0, 160)} message`);
      })
      .finally(() => {
        this.queued -= 1;
        this.queuedBytes -= bytes;
      });
  }
}
