import { existsSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { RunnerdFlagName } from "../cli/flag-definitions.js";
import { invalidArgument, missingArgument, type ParsedFlags } from "../cli/flags.js";
import { DEFAULT_COMMAND_HISTORY_LIMIT } from "../commands/admit-command.js";
import { PRP_ID_MAX_LENGTH } from "../events/prp-event.js";
import { loadScript } from "../harness/fake/load-script.js";
import type { StateBinding } from "../state/runner-state.js";

/** Local mode's configuration, read from the command line and checked before anything starts. */
export interface LocalOptions {
  readonly binding: StateBinding;
  readonly harness:
    | { readonly kind: "command"; readonly command: string; readonly args: readonly string[] }
    | { readonly kind: "fake"; readonly scriptPath: string; readonly delayMs: number | null };
  readonly stateDir: string | null;
  readonly sandbox: { readonly workspace: string; readonly allow: readonly string[] } | null;
  /** Names of daemon environment variables the launcher passes on to the harness. */
  readonly passEnv: readonly string[];
  readonly limits: LocalLimits;
}

/** Upstream's tunables, with upstream's defaults. */
export interface LocalLimits {
  readonly logMaxLines: number;
  readonly logMaxBytes: number;
  readonly shutdownGraceMs: number;
  readonly commandHistoryLimit: number;
  readonly controllerMaxLineBytes: number;
  readonly harnessMaxLineBytes: number;
}

export const DEFAULT_LIMITS: LocalLimits = {
  logMaxLines: 32,
  logMaxBytes: 16_384,
  shutdownGraceMs: 100,
  commandHistoryLimit: DEFAULT_COMMAND_HISTORY_LIMIT,
  controllerMaxLineBytes: 64 * 1024,
  harnessMaxLineBytes: 64 * 1024,
};

/**
 * The launcher names the variables a harness may see beyond the minimal allowlist
 * (typically its API key), comma-separated. Only names go here, never values.
 */
export const PASS_ENV_VARIABLE = "PAPERCLIP_RUNNER_HARNESS_ENV";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function readLocalOptions(flags: ParsedFlags, env: NodeJS.ProcessEnv): LocalOptions {
  const binding = {
    runId: readId(flags, "--run-id"),
    sessionId: readId(flags, "--session-id"),
    runnerId: readId(flags, "--runner-id"),
  };
  return {
    binding,
    harness: readHarness(flags),
    stateDir: readStateDir(flags),
    sandbox: readSandbox(flags),
    passEnv: readPassEnv(env),
    limits: {
      logMaxLines: readCount(flags, "--log-max-lines", DEFAULT_LIMITS.logMaxLines),
      logMaxBytes: readCount(flags, "--log-max-bytes", DEFAULT_LIMITS.logMaxBytes),
      shutdownGraceMs: readCount(flags, "--shutdown-grace-ms", DEFAULT_LIMITS.shutdownGraceMs),
      commandHistoryLimit: readCount(flags, "--command-history-limit", DEFAULT_LIMITS.commandHistoryLimit),
      controllerMaxLineBytes: readCount(
        flags,
        "--controller-max-line-bytes",
        DEFAULT_LIMITS.controllerMaxLineBytes,
      ),
      harnessMaxLineBytes: readCount(flags, "--harness-max-line-bytes", DEFAULT_LIMITS.harnessMaxLineBytes),
    },
  };
}

/** PRP identifiers are at most 160 characters in upstream's schemas; a longer one could never be sent. */
function readId(flags: ParsedFlags, name: RunnerdFlagName): string {
  const value = flags.required(name);
  if (value.length > PRP_ID_MAX_LENGTH)
    throw invalidArgument(name, `must be at most ${PRP_ID_MAX_LENGTH} characters`);
  return value;
}

/** A non-negative integer flag (upstream parses these as unsigned integers), or its default. */
function readCount(flags: ParsedFlags, name: RunnerdFlagName, fallback: number): number {
  const text = flags.value(name);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw invalidArgument(name, "must be a non-negative integer");
  return Number(text);
}

function readHarness(flags: ParsedFlags): LocalOptions["harness"] {
  const fake = flags.has("--fake-harness");
  const command = flags.value("--harness-command");
  if (fake && command !== undefined) {
    throw invalidArgument("--fake-harness", "cannot be combined with --harness-command");
  }
  if (fake) {
    // Upstream's launcher names its own fake-harness binary here; the built-in harness runs instead.
    flags.value("--fake-harness");
    const scriptPath = resolve(flags.required("--script"));
    const load = loadScript(scriptPath);
    if (!load.ok) throw invalidArgument("--script", load.reason);
    const delay = flags.value("--delay-ms");
    return {
      kind: "fake",
      scriptPath,
      delayMs: delay === undefined ? null : readCount(flags, "--delay-ms", 0),
    };
  }
  if (command === undefined) throw missingArgument("--harness-command");
  if (command === "") throw invalidArgument("--harness-command", "must not be empty");
  return { kind: "command", command, args: flags.all("--harness-arg") };
}

function readStateDir(flags: ParsedFlags): string | null {
  const stateDir = flags.value("--state-dir");
  if (stateDir === undefined) return null;
  if (stateDir === "") throw invalidArgument("--state-dir", "must not be empty");
  return resolve(stateDir);
}

function readSandbox(flags: ParsedFlags): LocalOptions["sandbox"] {
  const workspace = flags.value("--sandbox-workspace");
  const allow = flags.all("--sandbox-allow");
  if (workspace === undefined) {
    if (allow.length > 0) throw invalidArgument("--sandbox-allow", "requires --sandbox-workspace");
    return null;
  }
  if (!isAbsolute(workspace)) throw invalidArgument("--sandbox-workspace", "must be an absolute path");
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) {
    throw invalidArgument("--sandbox-workspace", "must be an existing directory");
  }
  return { workspace, allow };
}

function readPassEnv(env: NodeJS.ProcessEnv): readonly string[] {
  const names = (env[PASS_ENV_VARIABLE] ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  for (const name of names) {
    if (!ENV_NAME.test(name)) {
      throw invalidArgument(
        PASS_ENV_VARIABLE,
        "must be a comma-separated list of environment variable names",
      );
    }
  }
  return names;
}
