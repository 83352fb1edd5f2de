import { parseArgs } from "node:util";
import { CreateosError } from "@paperclipai/errors";
import type { CreateosEmulatorOptions } from "../types.js";

export type CliCommand =
  | { readonly action: "help" }
  | { readonly action: "version" }
  | {
      readonly action: "start";
      readonly options: CreateosEmulatorOptions;
      readonly faultsFile?: string;
      readonly json: boolean;
    };

export const USAGE = `Usage: createos-emulator [options]

A local CreateOS API emulator on loopback, with real processes, for trying and testing
@paperclipai/plugin-createos without an account. Prints the URL and API key, runs until
SIGINT/SIGTERM, then kills every process and removes every sandbox directory.

Options:
  --port N              port to listen on (default 0: a free port)
  --host H              loopback address (default 127.0.0.1)
  --api-key K           accepted X-Api-Key (default: random, printed)
  --heartbeat-ms N      heartbeat interval of idle output streams (default 2000)
  --journal-bytes N     output journal per process (default 1048576)
  --journal-backpressure
                        block a process instead of evicting output nobody has read yet
  --rate-limit N|off    requests per minute per caller IP (default 300)
  --rate-burst N        token-bucket burst (default 100)
  --transition-ms N     delay of each asynchronous state change (default 50)
  --workspace-root DIR  where sandbox directories are created (default: OS temp dir)
  --isolation MODE      none (default), bwrap or namespace
  --faults FILE         JSON fault plan ({"faults":[...]}) armed at start
  --json                print {"url","apiKey"} as one JSON line

Control plane (same X-Api-Key), for steering a running emulator from another process:
  GET    /_emulator/state    sandboxes, processes and the request log
  PUT    /_emulator/faults   arm a fault plan (JSON body {"faults":[...]})
  GET    /_emulator/faults   the faults that fired
  DELETE /_emulator/faults   disarm every fault
  -h, --help            show this help
  -v, --version         show the version
`;

function invalid(option: string, reason: string): CreateosError {
  return new CreateosError("ERR_CREATEOS_EMULATOR_OPTIONS", `Invalid CreateOS emulator options: ${reason}`, {
    details: { option },
  });
}

function integer(flag: string, raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw invalid(flag, `${flag} needs a non-negative integer.`);
  return Number(raw);
}

const FLAGS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
  json: { type: "boolean" },
  "journal-backpressure": { type: "boolean" },
  port: { type: "string" },
  host: { type: "string" },
  "api-key": { type: "string" },
  "heartbeat-ms": { type: "string" },
  "journal-bytes": { type: "string" },
  "rate-limit": { type: "string" },
  "rate-burst": { type: "string" },
  "transition-ms": { type: "string" },
  "workspace-root": { type: "string" },
  isolation: { type: "string" },
  faults: { type: "string" },
} as const;

function parseFlags(
  argv: readonly string[],
): ReturnType<typeof parseArgs<{ options: typeof FLAGS }>>["values"] {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    // node:util's message names the flag and says what is wrong with it; the code is ours.
    const reason = (error instanceof Error ? error.message : String(error))
      .split("\n")[0]
      ?.replace(/\.$/, "");
    throw invalid("argv", `${reason}; see --help.`);
  }
}

/** Parses the command line; range checks are left to the emulator's option validation. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const flags = parseFlags(argv);
  if (flags.help) return { action: "help" };
  if (flags.version) return { action: "version" };
  const options: { -readonly [K in keyof CreateosEmulatorOptions]: CreateosEmulatorOptions[K] } = {};
  if (flags.port !== undefined) options.port = integer("--port", flags.port);
  if (flags.host !== undefined) options.host = flags.host;
  if (flags["api-key"] !== undefined) options.apiKey = flags["api-key"];
  if (flags["heartbeat-ms"] !== undefined)
    options.heartbeatMs = integer("--heartbeat-ms", flags["heartbeat-ms"]);
  if (flags["journal-bytes"] !== undefined)
    options.journalBytes = integer("--journal-bytes", flags["journal-bytes"]);
  if (flags["journal-backpressure"]) options.journalBackpressure = true;
  const rateLimit = flags["rate-limit"];
  if (rateLimit !== undefined)
    options.rateLimitPerMinute = rateLimit === "off" ? null : integer("--rate-limit", rateLimit);
  if (flags["rate-burst"] !== undefined)
    options.rateLimitBurst = integer("--rate-burst", flags["rate-burst"]);
  if (flags["transition-ms"] !== undefined)
    options.transitionMs = integer("--transition-ms", flags["transition-ms"]);
  if (flags["workspace-root"] !== undefined) options.workspaceRoot = flags["workspace-root"];
  const isolation = flags.isolation;
  if (isolation !== undefined) {
    if (isolation !== "none" && isolation !== "bwrap" && isolation !== "namespace")
      throw invalid("--isolation", '--isolation is "none", "bwrap" or "namespace".');
    options.isolation = isolation;
  }
  const json = flags.json === true;
  return {
    action: "start",
    options,
    json,
    ...(flags.faults === undefined ? {} : { faultsFile: flags.faults }),
  };
}
