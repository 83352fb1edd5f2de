import { SandboxError } from "@paperclipai/errors";

export interface RunCommandArgs {
  readonly kind: "run";
  readonly workspace: string | null;
  readonly ro: readonly string[];
  readonly rw: readonly string[];
  readonly net: "deny" | "allowlist";
  readonly allow: readonly string[];
  readonly trust: readonly string[];
  /** Keep the host filesystem visible (network-only scope) instead of the workspace scope. */
  readonly hostFs: boolean;
  readonly verbose: boolean;
  readonly timeoutSec: number;
  readonly command: string;
  readonly args: readonly string[];
}

export type CliArgs =
  | RunCommandArgs
  | { readonly kind: "doctor"; readonly json: boolean }
  | { readonly kind: "help" }
  | { readonly kind: "version" };

function usage(reason: string): SandboxError {
  return new SandboxError("ERR_SANDBOX_CLI_USAGE", reason, { details: { reason } });
}

const VALUE_OPTIONS = new Set(["--workspace", "--ro", "--rw", "--net", "--allow", "--trust", "--timeout"]);

/** Parses `paperclip-sandbox` argv (without `node` and the script). */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  const first = argv[0];
  if (first === undefined || first === "--help" || first === "-h" || first === "help")
    return { kind: "help" };
  if (first === "--version" || first === "-V") return { kind: "version" };
  if (first === "doctor") {
    const rest = argv.slice(1);
    const unknown = rest.find((arg) => arg !== "--json");
    if (unknown !== undefined)
      throw usage(`Unknown doctor option "${unknown}". Usage: paperclip-sandbox doctor [--json]`);
    return { kind: "doctor", json: rest.includes("--json") };
  }

  let workspace: string | null = null;
  const ro: string[] = [];
  const rw: string[] = [];
  const allow: string[] = [];
  const trust: string[] = [];
  let net: "deny" | "allowlist" | null = null;
  let hostFs = false;
  let verbose = false;
  let timeoutSec = 0;
  let index = 0;
  for (; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === "--") {
      index += 1;
      break;
    }
    if (arg === "--help" || arg === "-h") return { kind: "help" };
    if (arg === "--verbose" || arg === "-v") {
      verbose = true;
      continue;
    }
    if (arg === "--host-fs") {
      hostFs = true;
      continue;
    }
    const equals = arg.indexOf("=");
    const name = arg.startsWith("--") && equals > 0 ? arg.slice(0, equals) : arg;
    if (!VALUE_OPTIONS.has(name)) {
      if (arg.startsWith("-"))
        throw usage(`Unknown option "${arg}". Run paperclip-sandbox --help for the usage.`);
      // The command starts at the first non-option word, as with `env`.
      break;
    }
    let value: string | undefined;
    if (name !== arg) value = arg.slice(equals + 1);
    else {
      value = argv[index + 1];
      index += 1;
    }
    if (value === undefined || value === "") throw usage(`Option ${name} needs a value.`);
    switch (name) {
      case "--workspace":
        workspace = value;
        break;
      case "--ro":
        ro.push(value);
        break;
      case "--rw":
        rw.push(value);
        break;
      case "--allow":
        allow.push(value);
        break;
      case "--trust":
        trust.push(value);
        break;
      case "--timeout": {
        const seconds = Number(value);
        if (!Number.isInteger(seconds) || seconds < 0)
          throw usage(`--timeout must be a whole number of seconds; got "${value}".`);
        timeoutSec = seconds;
        break;
      }
      default:
        if (value !== "deny" && value !== "allowlist")
          throw usage(`--net must be "deny" or "allowlist"; got "${value}".`);
        net = value;
    }
  }
  const command = argv[index];
  if (command === undefined)
    throw usage("No command given. Usage: paperclip-sandbox [options] -- CMD [ARGS...]");
  const resolvedNet = net ?? (allow.length > 0 || trust.length > 0 ? "allowlist" : "deny");
  if (resolvedNet === "deny" && (allow.length > 0 || trust.length > 0)) {
    throw usage("--allow and --trust need --net allowlist.");
  }
  return {
    kind: "run",
    workspace,
    ro,
    rw,
    net: resolvedNet,
    allow,
    trust,
    hostFs,
    verbose,
    timeoutSec,
    command,
    args: argv.slice(index + 1),
  };
}

export const HELP_TEXT = `paperclip-sandbox: run a command in the Paperclip local-process sandbox (bubblewrap).

Usage:
  paperclip-sandbox [options] -- CMD [ARGS...]
  paperclip-sandbox doctor [--json]

Options:
  --workspace DIR      The writable workspace (default: the current directory).
  --ro PATH            Also show PATH read-only (repeatable).
  --rw PATH            Also show PATH read-write (repeatable).
  --net deny|allowlist No network at all (default), or only --allow/--trust targets through the proxy.
  --allow HOST[:PORT]  Allow a host: bare host = ports 80 and 443, host:PORT, host:* (repeatable; implies --net allowlist).
  --trust URL          Always allow this URL's origin, private addresses included (repeatable).
  --host-fs            Keep the host filesystem visible (network-only confinement).
  --timeout SECONDS    SIGTERM after this long, SIGKILL 5 s later (default: none).
  --verbose, -v        Log every network decision to stderr.
  --help, -h           This help.  --version, -V  The version.

The exit status is the command's (128+N when signal N ended it); 125 when the
sandbox could not be set up, 126/127 when the command cannot run, 2 on a usage error.

doctor checks bwrap and its version, user namespaces (and Ubuntu's AppArmor
restriction), the proxy socket directory candidates and their path lengths, and
starts real sandboxes; each problem is printed with its error code and the fix.
`;
