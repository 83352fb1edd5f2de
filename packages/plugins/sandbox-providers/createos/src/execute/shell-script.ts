import { CreateosError } from "@paperclipai/errors";
import { isPlainBashVariable } from "./bash-plain-variable.js";

export interface CommandSpec {
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Sandbox path of the staged stdin file. */
  readonly stdinPath?: string | undefined;
}

const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Single-quotes a value for bash; a `'` becomes `'"'"'`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}

/** Checks a command before anything is sent, in the upstream order. */
export function validateCommand(
  spec: Omit<CommandSpec, "stdinPath"> & { readonly stdin?: string | undefined },
): void {
  if (typeof spec.command !== "string" || spec.command.trim() === "") {
    throw new CreateosError("ERR_CREATEOS_COMMAND_REQUIRED", "A sandbox command is required.");
  }
  for (const key of Object.keys(spec.env ?? {})) {
    if (!ENV_KEY.test(key)) {
      throw new CreateosError("ERR_CREATEOS_INVALID_ENV", "Invalid sandbox environment variable.", {
        details: { key: key.slice(0, 100) },
      });
    }
  }
  const values = [
    spec.command,
    ...(spec.args ?? []),
    spec.cwd ?? "",
    ...Object.entries(spec.env ?? {}).flat(),
    spec.stdin ?? "",
  ];
  for (const value of values) {
    if (typeof value !== "string") {
      throw new CreateosError("ERR_CREATEOS_COMMAND_REQUIRED", "A sandbox command is required.");
    }
    if (value.includes("\0")) {
      throw new CreateosError("ERR_CREATEOS_NUL_VALUE", "Sandbox command values cannot contain NUL.");
    }
  }
  // `env` takes every leading word with `=` for an assignment: such a command would never run,
  // its first argument would run in its place, or `env` would print the environment.
  if (spec.command.includes("=") && needsEnv(Object.keys(spec.env ?? {}))) {
    throw new CreateosError(
      "ERR_CREATEOS_COMMAND_ASSIGNMENT",
      "A sandbox command containing = cannot run with an environment variable bash reserves.",
    );
  }
}

/** Whether the launch line sets the per-command env through `env` (see `launchLine`). */
function needsEnv(names: readonly string[]): boolean {
  return !names.every(isPlainBashVariable);
}

/** The shell every command is started by: the API's `cmd`. */
export const BASH = "/bin/bash";

/** What the create call starts: the API's `cmd` and `args`. */
export interface ProcessCommand {
  readonly cmd: string;
  readonly args: readonly string[];
}

/**
 * The process the create call asks for: `/bin/bash -c <script>` (see `buildScript`), or the
 * command itself when it is `/bin/bash` with nothing for the wrapper to do (no cwd, no env, no
 * stdin). The wrapper would only `exec` that same `/bin/bash` with the same argv, one process
 * start later: what it adds to the environment (`PWD`, `SHLVL` lowered by one for the exec) the
 * started bash sets again on its own, to the same values, so the command sees the same
 * variables, argv, pid, cwd, stdin and exit. Only a sandbox environment that makes a bash run or
 * print something at its start (`BASH_ENV`, an exported `SHELLOPTS` with `xtrace`) does it once
 * rather than twice. Any other command (another shell included, or `bash` found on `PATH`) keeps
 * the wrapper, which gives it bash's PATH lookup and exit codes (127, 126).
 */
export function processCommand(spec: CommandSpec): ProcessCommand {
  const bare =
    spec.command === BASH &&
    (spec.cwd === undefined || spec.cwd === "") &&
    spec.stdinPath === undefined &&
    Object.keys(spec.env ?? {}).length === 0;
  return bare ? { cmd: BASH, args: [...(spec.args ?? [])] } : { cmd: BASH, args: ["-c", buildScript(spec)] };
}

/**
 * The `bash -c` script: `cd -- '<cwd>' || exit`, then, when stdin was staged, the staged file
 * opened as stdin (`exec < '<stdin>' || exit`: a missing one fails with 1, as the redirection
 * on the launch line did) and removed at once (silently: a failed removal is not the command's
 * output, and the worker removes it again after the command), then the launch line (see `launchLine`). The file
 * may hold prompts and secrets: removed by the command's own shell, it is gone before the
 * command runs, even when the worker that staged it is killed mid-command and never removes it
 * (its removal after every command stays, for a command that never started). No login shell:
 * the sandbox's profile must not change what runs.
 */
export function buildScript(spec: CommandSpec): string {
  const lines = [launchLine(spec)];
  if (spec.stdinPath !== undefined) {
    const path = shellQuote(spec.stdinPath);
    lines.unshift(`exec < ${path} || exit`, `/bin/rm -f -- ${path} 2>/dev/null`);
  }
  if (spec.cwd !== undefined && spec.cwd !== "") lines.unshift(`cd -- ${shellQuote(spec.cwd)} || exit`);
  return lines.join("\n");
}

/**
 * How the command replaces the wrapper shell: bash's own `exec -- '<cmd>' …`, with the
 * per-command env as assignments before it (`K='v' exec -- …`; the env rides in the wrapper, as
 * the API only accepts env keys declared at sandbox creation). No `env` process in between: a
 * process start is milliseconds on a sandbox VM. The PATH lookup (a `PATH` among the env
 * included), argv and exit codes (127 not found, 126 not executable) are those of `env`; `--`
 * ends the options, so a command starting with `-` is still a command. When a name is one bash
 * gives a meaning to (`isPlainBashVariable`), the line is `exec env -- K='v' … '<cmd>' …`, as
 * `env` sets any name verbatim. What differs from `env` is confined to files the kernel refuses
 * to run (ENOEXEC): bash runs a text file without `#!` itself and refuses a foreign binary with
 * 126, where `env` (execvp) hands either to `/bin/sh`; and the wording of bash's own errors.
 */
export function launchLine(spec: Pick<CommandSpec, "command" | "args" | "env">): string {
  const argv = [spec.command, ...(spec.args ?? [])].map(shellQuote).join(" ");
  const env = Object.entries(spec.env ?? {});
  const assignments = env.map(([key, value]) => `${key}=${shellQuote(value)}`).join(" ");
  if (env.length === 0) return `exec -- ${argv}`;
  if (!needsEnv(env.map(([key]) => key))) return `${assignments} exec -- ${argv}`;
  return `exec env -- ${assignments} ${argv}`;
}
