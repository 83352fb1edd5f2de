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
  --isolation MODE      none (default) or bwrap
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

/** Parses the command line; range checks are left to the emulator's option validation. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const options: { -readonly [K in keyof CreateosEmulatorOptions]: CreateosEmulatorOptions[K] } = {};
  let faultsFile: string | undefined;
  let json = false;
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index] ?? "";
    if (flag === "-h" || flag === "--help") return { action: "help" };
    if (flag === "-v" || flag === "--version") return { action: "version" };
    if (flag === "--json") {
      json = true;
      continue;
    }
    if (flag === "--journal-backpressure") {
      options.journalBackpressure = true;
      continue;
    }
    const [name, inline] =
      flag.startsWith("--") && flag.includes("=") ? flag.split(/=(.*)/s, 2) : [flag, undefined];
    const value = inline ?? argv[++index];
    if (value === undefined) throw invalid(name ?? flag, `${name} needs a value.`);
    switch (name) {
      case "--port":
        options.port = integer(name, value);
        break;
      case "--host":
        options.host = value;
        break;
      case "--api-key":
        options.apiKey = value;
        break;
      case "--heartbeat-ms":
        options.heartbeatMs = integer(name, value);
        break;
      case "--journal-bytes":
        options.journalBytes = integer(name, value);
        break;
      case "--rate-limit":
        options.rateLimitPerMinute = value === "off" ? null : integer(name, value);
        break;
      case "--rate-burst":
        options.rateLimitBurst = integer(name, value);
        break;
      case "--transition-ms":
        options.transitionMs = integer(name, value);
        break;
      case "--workspace-root":
        options.workspaceRoot = value;
        break;
      case "--isolation":
        if (value !== "none" && value !== "bwrap") throw invalid(name, '--isolation is "none" or "bwrap".');
        options.isolation = value;
        break;
      case "--faults":
        faultsFile = value;
        break;
      default:
        throw invalid(flag, `unknown argument ${JSON.stringify(flag)}; see --help.`);
    }
  }
  return { action: "start", options, json, ...(faultsFile === undefined ? {} : { faultsFile }) };
}
