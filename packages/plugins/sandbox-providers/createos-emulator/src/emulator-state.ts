import { randomBytes } from "node:crypto";
import { readProcTable } from "@paperclipai/internal";
import type { EmulatedSandbox } from "./emulated-sandbox.js";
import { FaultBook } from "./fault-book.js";
import type { Launcher } from "./launcher.js";
import type { ResolvedEmulatorOptions } from "./options.js";
import { RateLimiter } from "./rate-limiter.js";
import type { ProcessSnapshot, RequestRecord, SandboxSnapshot } from "./types.js";

// Enough for any test; a long demo run keeps the newest records only.
const MAX_RECORDS = 50_000;

export type MutableRequestRecord = { -readonly [K in keyof RequestRecord]: RequestRecord[K] };

/** The whole emulated service: sandboxes, fault rules, rate limiter, request log. */
export class EmulatorState {
  readonly sandboxes = new Map<string, EmulatedSandbox>();
  readonly faults = new FaultBook();
  readonly limiter: RateLimiter | null;
  readonly records: MutableRequestRecord[] = [];
  readonly #connections = new WeakMap<object, number>();
  #connectionCount = 0;
  closing = false;
  /** Route handlers still running; `close()` waits for them so none recreates a directory after cleanup. */
  readonly inflight = new Set<Promise<void>>();

  constructor(
    readonly options: ResolvedEmulatorOptions,
    readonly apiKey: string,
    readonly root: string,
    readonly launcher: Launcher,
  ) {
    this.limiter = options.rateLimit
      ? new RateLimiter(options.rateLimit.perMinute, options.rateLimit.burst)
      : null;
    if (options.faults) this.faults.set(options.faults);
  }

  sandboxSnapshots(): SandboxSnapshot[] {
    return [...this.sandboxes.values()].map((sandbox) => sandbox.snapshot());
  }

  processSnapshots(): ProcessSnapshot[] {
    const table = readProcTable();
    return [...this.sandboxes.values()].flatMap((sandbox) =>
      [...sandbox.processes.values()].map((process) => process.snapshot(table)),
    );
  }

  /** A delete nobody asked the plugin for: `forget` also drops the record (then 404). */
  async deleteBehindClient(id: string, forget: boolean, graceMs: number): Promise<boolean> {
    const sandbox = this.sandboxes.get(id);
    if (sandbox === undefined) return false;
    await sandbox.destroy(graceMs);
    if (forget) this.sandboxes.delete(id);
    return true;
  }

  record(entry: MutableRequestRecord): MutableRequestRecord {
    this.records.push(entry);
    if (this.records.length > MAX_RECORDS) this.records.splice(0, this.records.length - MAX_RECORDS);
    return entry;
  }

  /** The number of the connection `socket`, given when it carries its first request. */
  connectionNumber(socket: object): number {
    let number = this.#connections.get(socket);
    if (number === undefined) {
      number = ++this.#connectionCount;
      this.#connections.set(socket, number);
    }
    return number;
  }

  /** Sandbox, process and other ids: a prefix and random url-safe characters, always matching the id pattern. */
  static newId(prefix: string): string {
    return `${prefix}_${randomBytes(12).toString("base64url")}`;
  }
}
