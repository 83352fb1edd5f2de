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
 * The `bash -c` script: `cd -- '<cwd>' || exit`, then `exec env -- K='v' … '<cmd>' '<arg>' … [< '<stdin>']`.
 * Per-command env rides in the wrapper because the API only accepts env keys declared at
 * sandbox creation. `--` ends env's options, so a command starting with `-` is still a command.
 * No login shell: the sandbox's profile must not change what runs.
 */
export function buildScript(spec: CommandSpec): string {
  const lines: string[] = [];
  if (spec.cwd !== undefined && spec.cwd !== "") lines.push(`cd -- ${shellQuote(spec.cwd)} || exit`);
  const assignments = Object.entries(spec.env ?? {}).map(([key, value]) => `${key}=${shellQuote(value)}`);
  const argv = [spec.command, ...(spec.args ?? [])].map(shellQuote);
  let line = ["exec", "env", "--", ...assignments, ...argv].join(" ");
  if (spec.stdinPath !== undefined) line += ` < ${shellQuote(spec.stdinPath)}`;
  lines.push(line);
  return lines.join("\n");
}
