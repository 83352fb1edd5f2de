import type { RegistryTable } from "./entry.js";

/** Codes of `@paperclipai/errors` itself (its registry lookups and its CLI). */
export const coreRegistry = {
  ERR_ERRORS_UNKNOWN_CODE: {
    family: "errors",
    title: "Unknown error code",
    message: 'Unknown Paperclip error code "${code}".',
    meaning:
      "A code was looked up in the registry (with `explain(code)`, `getErrorEntry(code)` or `paperclip-errors explain`) but no entry has that name.",
    when: "A typo in the code, a code from a newer release of a package than the installed `@paperclipai/errors`, or a message passed where a code was expected.",
    solutions: [
      "Run `paperclip-errors list` to see every code this version documents.",
      "Copy the code from `error.code` (or the `code` field of the serialized error), not from the message.",
      "Upgrade `@paperclipai/errors` to the version that the throwing package depends on.",
    ],
    prevention:
      "Branch on `error.code` values imported from the registry types (`ErrorCode`), so TypeScript rejects a misspelt code at compile time.",
    example: "paperclip-errors explain ERR_SANDBOX_PROXY_SOCKET_DIR",
  },
  ERR_ERRORS_CLI_USAGE: {
    family: "errors",
    title: "Invalid paperclip-errors command line",
    message: "${reason}",
    meaning:
      "The `paperclip-errors` command line could not be understood: a missing subcommand, argument or option value.",
    when: "Running `paperclip-errors` with no subcommand, `explain` without a code, `docs` without `--out DIR`, or an unknown subcommand.",
    solutions: [
      "Run `paperclip-errors --help` for the usage.",
      "Give `explain` exactly one code, for example `paperclip-errors explain ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS`.",
      "Give `docs` an output directory: `paperclip-errors docs --out docs/errors`.",
    ],
    prevention: "Script the CLI with the documented subcommands only; the exit status is 2 on a usage error.",
  },
} as const satisfies RegistryTable<"ERRORS", "errors">;
