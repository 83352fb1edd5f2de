import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { invalidArgument, missingArgument, type ParsedFlags } from "../cli/flags.js";
import { parseFakeScript } from "../harness/fake/fake-script.js";
import type { StateBinding } from "../state/runner-state.js";

/** Local mode's configuration, read from the command line and checked before anything starts. */
export interface LocalOptions {
  readonly binding: StateBinding;
  readonly harness:
    | { readonly kind: "command"; readonly command: string; readonly args: readonly string[] }
    | { readonly kind: "fake"; readonly scriptPath: string };
  readonly stateDir: string | null;
  readonly sandbox: { readonly workspace: string; readonly allow: readonly string[] } | null;
  /** Names of daemon environment variables the launcher passes on to the harness. */
  readonly passEnv: readonly string[];
}

/**
 * The launcher names the variables a harness may see beyond the minimal allowlist
 * (typically its API key), comma-separated. Only names go here, never values.
 */
export const PASS_ENV_VARIABLE = "PAPERCLIP_RUNNER_HARNESS_ENV";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function readLocalOptions(flags: ParsedFlags, env: NodeJS.ProcessEnv): LocalOptions {
  const binding = {
    runId: flags.required("--run-id"),
    sessionId: flags.required("--session-id"),
    runnerId: flags.required("--runner-id"),
  };
  return {
    binding,
    harness: readHarness(flags),
    stateDir: readStateDir(flags),
    sandbox: readSandbox(flags),
    passEnv: readPassEnv(env),
  };
}

function readHarness(flags: ParsedFlags): LocalOptions["harness"] {
  const fake = flags.has("--fake-harness");
  const command = flags.value("--harness-command");
  if (fake && command !== undefined) {
    throw invalidArgument("--fake-harness", "cannot be combined with --harness-command");
  }
  if (fake) {
    const scriptPath = resolve(flags.required("--script"));
    let text: string;
    try {
      text = readFileSync(scriptPath, "utf8");
    } catch (error) {
      throw invalidArgument(
        "--script",
        `cannot read the script (${(error as { code?: string }).code ?? "error"})`,
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw invalidArgument("--script", "the script is not JSON");
    }
    const parsed = parseFakeScript(value);
    if (!parsed.ok) throw invalidArgument("--script", parsed.reason);
    return { kind: "fake", scriptPath };
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
