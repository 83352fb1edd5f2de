import { posix } from "node:path";
import { CreateosError } from "@paperclipai/errors";
import type { FaultPlan } from "./fault-types.js";
import { DEFAULT_SHAPES } from "./shape-catalog.js";
import type { CreateosEmulatorOptions, EmulatorIsolation } from "./types.js";

/** Options with every default applied; the shape the emulator runs on. */
export interface ResolvedEmulatorOptions {
  readonly host: string;
  readonly port: number;
  readonly apiKey: string | undefined;
  readonly heartbeatMs: number;
  readonly journalBytes: number;
  readonly journalBackpressure: boolean;
  readonly rateLimit: { readonly perMinute: number; readonly burst: number } | null;
  readonly transitionMs: number;
  readonly workspaceRoot: string | undefined;
  readonly isolation: EmulatorIsolation;
  readonly bwrapPath: string;
  readonly faults: FaultPlan | undefined;
  readonly execOutputBytes: number;
  /** `null`: any shape is accepted. */
  readonly shapes: ReadonlySet<string> | null;
}

/** The default parent of sandbox directories under bubblewrap: a temp dir outside /tmp. */
export const BWRAP_DEFAULT_ROOT = "/var/tmp";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "::1", "localhost"]);
// Printable ASCII without spaces: always a valid header value, never ambiguous in a shell.
const API_KEY_PATTERN = /^[\x21-\x7e]{1,512}$/;

function isUnderTmp(path: string): boolean {
  const normal = posix.normalize(path);
  return normal === "/tmp" || normal.startsWith("/tmp/");
}

function invalid(option: string, reason: string): CreateosError {
  return new CreateosError("ERR_CREATEOS_EMULATOR_OPTIONS", `Invalid CreateOS emulator options: ${reason}`, {
    details: { option },
  });
}

function integer(
  option: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw invalid(option, `${option} must be an integer from ${min} to ${max}.`);
  }
  return value;
}

/** Validates the caller's options and fills in the defaults. */
export function resolveEmulatorOptions(options: CreateosEmulatorOptions = {}): ResolvedEmulatorOptions {
  const host = options.host ?? "127.0.0.1";
  if (!LOOPBACK_HOSTS.has(host) && !/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) {
    throw invalid("host", "host must be a loopback address (127.0.0.0/8, ::1 or localhost).");
  }
  if (options.apiKey !== undefined && !API_KEY_PATTERN.test(options.apiKey)) {
    throw invalid("apiKey", "apiKey must be 1-512 printable ASCII characters without spaces.");
  }
  const isolation = options.isolation ?? "none";
  if (isolation !== "none" && isolation !== "bwrap" && isolation !== "namespace") {
    throw invalid("isolation", 'isolation must be "none", "bwrap" or "namespace".');
  }
  let rateLimit: ResolvedEmulatorOptions["rateLimit"] = null;
  if (options.rateLimitPerMinute !== null) {
    const perMinute = integer("rateLimitPerMinute", options.rateLimitPerMinute, 300, 1, 1_000_000);
    const burst = integer("rateLimitBurst", options.rateLimitBurst, Math.min(100, perMinute), 1, perMinute);
    rateLimit = { perMinute, burst };
  }
  if (options.workspaceRoot !== undefined && !options.workspaceRoot.startsWith("/")) {
    throw invalid("workspaceRoot", "workspaceRoot must be an absolute path.");
  }
  // Under bubblewrap the sandbox's own directory is mounted over /tmp, which would hide a root below it.
  if (isolation === "bwrap" && options.workspaceRoot !== undefined && isUnderTmp(options.workspaceRoot)) {
    throw invalid("workspaceRoot", 'workspaceRoot cannot be under /tmp with isolation "bwrap".');
  }
  return {
    host,
    port: integer("port", options.port, 0, 0, 65535),
    apiKey: options.apiKey,
    heartbeatMs: integer("heartbeatMs", options.heartbeatMs, 2000, 10, 3_600_000),
    journalBytes: integer("journalBytes", options.journalBytes, 1024 * 1024, 1, 1024 * 1024 * 1024),
    journalBackpressure: options.journalBackpressure ?? false,
    rateLimit,
    transitionMs: integer("transitionMs", options.transitionMs, 50, 0, 3_600_000),
    workspaceRoot: options.workspaceRoot ?? (isolation === "bwrap" ? BWRAP_DEFAULT_ROOT : undefined),
    isolation,
    bwrapPath: options.bwrapPath ?? "bwrap",
    faults: options.faults,
    execOutputBytes: integer("execOutputBytes", options.execOutputBytes, 1024 * 1024, 1, 256 * 1024 * 1024),
    shapes:
      options.shapes === null ? null : new Set(options.shapes ?? DEFAULT_SHAPES.map((shape) => shape.id)),
  };
}
