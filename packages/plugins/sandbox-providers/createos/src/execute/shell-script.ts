import { CreateosError } from "@paperclipai/errors";

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
}

/**
 * The `bash -c` script: `cd -- '<cwd>' || exit`, then the launch line (see `launchLine`),
 * `< '<stdin>'` when stdin was staged. No login shell: the sandbox's profile must not change
 * what runs.
 */
export function buildScript(spec: CommandSpec): string {
  const launch = launchLine(spec);
  const line = spec.stdinPath === undefined ? launch : `${launch} < ${shellQuote(spec.stdinPath)}`;
  return spec.cwd !== undefined && spec.cwd !== "" ? `cd -- ${shellQuote(spec.cwd)} || exit\n${line}` : line;
}

/**
 * How the command replaces the wrapper shell. With per-command env: `exec env -- K='v' …
 * '<cmd>' …`, as the env rides in the wrapper (the API only accepts env keys declared at
 * sandbox creation) and `env` sets any name verbatim, bash's special and read-only variables
 * included. Without: bash's own `exec -- '<cmd>' …`, one exec fewer (a process start is
 * milliseconds on a sandbox VM) with the same PATH lookup, argv and exit codes (127 not
 * found, 126 not executable). `--` ends the options, so a command starting with `-` is still
 * a command. What differs is confined to files the kernel refuses to run (ENOEXEC): bash
 * runs a text file without `#!` itself and refuses a foreign binary with 126, where `env`
 * (execvp) hands either to `/bin/sh`; and the wording of bash's own error messages.
 */
export function launchLine(spec: Pick<CommandSpec, "command" | "args" | "env">): string {
  const argv = [spec.command, ...(spec.args ?? [])].map(shellQuote).join(" ");
  const assignments = Object.entries(spec.env ?? {}).map(([key, value]) => `${key}=${shellQuote(value)}`);
  return assignments.length === 0 ? `exec -- ${argv}` : `exec env -- ${assignments.join(" ")} ${argv}`;
}
