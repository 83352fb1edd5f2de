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

type NetworkScope = RunCommandArgs["net"];

/** The run options as the command line gives them, before the network is resolved. */
interface RunOptions {
  workspace: string | null;
  ro: string[];
  rw: string[];
  allow: string[];
  trust: string[];
  net: NetworkScope | null;
  hostFs: boolean;
  verbose: boolean;
  timeoutSec: number;
}

const FLAGS = new Map<string, "help" | "verbose" | "hostFs">([
  ["--help", "help"],
  ["-h", "help"],
  ["--verbose", "verbose"],
  ["-v", "verbose"],
  ["--host-fs", "hostFs"],
]);

const VALUE_OPTIONS = new Set(["--workspace", "--ro", "--rw", "--net", "--allow", "--trust", "--timeout"]);

/** One step through the run options: a flag, an option with its value, or where the command starts. */
export type OptionWord =
  | { readonly kind: "flag"; readonly flag: "help" | "verbose" | "hostFs"; readonly next: number }
  | { readonly kind: "value"; readonly name: string; readonly value: string; readonly next: number }
  | { readonly kind: "command"; readonly at: number };

/** Reads the word at `index`; an option's value is inline (`--ro=/a`) or the next word (`--ro /a`). */
export function readOptionWord(argv: readonly string[], index: number): OptionWord {
  const arg = argv[index];
  if (arg === undefined) return { kind: "command", at: index };
  if (arg === "--") return { kind: "command", at: index + 1 };
  const flag = FLAGS.get(arg);
  if (flag) return { kind: "flag", flag, next: index + 1 };
  const equals = arg.indexOf("=");
  const name = arg.startsWith("--") && equals > 0 ? arg.slice(0, equals) : arg;
  if (!VALUE_OPTIONS.has(name)) {
    if (arg.startsWith("-"))
      throw usage(`Unknown option "${arg}". Run paperclip-sandbox --help for the usage.`);
    // The command starts at the first non-option word, as with `env`.
    return { kind: "command", at: index };
  }
  const inline = name !== arg;
  const value = inline ? arg.slice(equals + 1) : argv[index + 1];
  if (value === undefined || value === "") throw usage(`Option ${name} needs a value.`);
  return { kind: "value", name, value, next: index + (inline ? 1 : 2) };
}

function parseTimeout(value: string): number {
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 0)
    throw usage(`--timeout must be a whole number of seconds; got "${value}".`);
  return seconds;
}

function parseNet(value: string): NetworkScope {
  if (value !== "deny" && value !== "allowlist")
    throw usage(`--net must be "deny" or "allowlist"; got "${value}".`);
  return value;
}

function applyValueOption(options: RunOptions, name: string, value: string): void {
  if (name === "--workspace") options.workspace = value;
  else if (name === "--ro") options.ro.push(value);
  else if (name === "--rw") options.rw.push(value);
  else if (name === "--allow") options.allow.push(value);
  else if (name === "--trust") options.trust.push(value);
  else if (name === "--timeout") options.timeoutSec = parseTimeout(value);
  else options.net = parseNet(value);
}

/** The options before the command, and where the command starts; `null` when they ask for help. */
function readRunOptions(argv: readonly string[]): { options: RunOptions; commandAt: number } | null {
  const options: RunOptions = {
    workspace: null,
    ro: [],
    rw: [],
    allow: [],
    trust: [],
    net: null,
    hostFs: false,
    verbose: false,
    timeoutSec: 0,
  };
  let index = 0;
  for (;;) {
    const word = readOptionWord(argv, index);
    if (word.kind === "command") return { options, commandAt: word.at };
    if (word.kind === "value") applyValueOption(options, word.name, word.value);
    else if (word.flag === "help") return null;
    else options[word.flag] = true;
    index = word.next;
  }
}

/** `--net` when given, else `allowlist` exactly when something is allowed; `deny` with allowed targets is refused. */
export function resolveNetworkScope(
  net: NetworkScope | null,
  allow: readonly string[],
  trust: readonly string[],
): NetworkScope {
  const allowsAny = allow.length > 0 || trust.length > 0;
  const resolved = net ?? (allowsAny ? "allowlist" : "deny");
  if (resolved === "deny" && allowsAny) throw usage("--allow and --trust need --net allowlist.");
  return resolved;
}

function parseRunArgs(argv: readonly string[]): CliArgs {
  const read = readRunOptions(argv);
  if (!read) return { kind: "help" };
  const command = argv[read.commandAt];
  if (command === undefined)
    throw usage("No command given. Usage: paperclip-sandbox [options] -- CMD [ARGS...]");
  const { net, ...options } = read.options;
  const resolvedNet = resolveNetworkScope(net, options.allow, options.trust);
  return { kind: "run", ...options, net: resolvedNet, command, args: argv.slice(read.commandAt + 1) };
}

function parseDoctorArgs(rest: readonly string[]): CliArgs {
  const unknown = rest.find((arg) => arg !== "--json");
  if (unknown !== undefined)
    throw usage(`Unknown doctor option "${unknown}". Usage: paperclip-sandbox doctor [--json]`);
  return { kind: "doctor", json: rest.includes("--json") };
}

/** Parses `paperclip-sandbox` argv (without `node` and the script). */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  const first = argv[0];
  if (first === undefined || first === "--help" || first === "-h" || first === "help")
    return { kind: "help" };
  if (first === "--version" || first === "-V") return { kind: "version" };
  if (first === "doctor") return parseDoctorArgs(argv.slice(1));
  return parseRunArgs(argv);
}
