import { PaperclipError } from "@paperclipai/errors";
import { findErrorEntry } from "@paperclipai/errors/registry";

/** Exit statuses that tell the sandbox's own failures from the command's. */
export const EXIT_USAGE = 2;
export const EXIT_SETUP = 125;
export const EXIT_CANNOT_RUN = 126;
export const EXIT_NOT_FOUND = 127;

export function exitStatusFor(error: unknown): number {
  if (!PaperclipError.is(error)) return EXIT_SETUP;
  switch (error.code) {
    case "ERR_SANDBOX_CLI_USAGE":
      return EXIT_USAGE;
    case "ERR_SANDBOX_COMMAND_NOT_FOUND":
      return EXIT_NOT_FOUND;
    case "ERR_SANDBOX_SPAWN_FAILED":
      return EXIT_CANNOT_RUN;
    default:
      return EXIT_SETUP;
  }
}

/** One coded error as the CLI prints it: code and message, then the registry's first fixes. */
export function formatCliError(error: unknown, indent = ""): string {
  if (!PaperclipError.is(error))
    return `${indent}${error instanceof Error ? error.message : String(error)}\n`;
  const lines = [`${indent}${error.code}: ${error.message}`];
  const attempts = error.details.attempts;
  if (Array.isArray(attempts)) {
    for (const attempt of attempts as { baseDir?: unknown; reason?: unknown }[]) {
      lines.push(`${indent}  - ${String(attempt.baseDir)}: ${String(attempt.reason)}`);
    }
  }
  if (typeof error.details.stderr === "string" && error.details.stderr) {
    for (const line of error.details.stderr.trimEnd().split("\n")) lines.push(`${indent}  | ${line}`);
  }
  const entry = findErrorEntry(error.code);
  if (entry && error.code !== "ERR_SANDBOX_CLI_USAGE") {
    lines.push(`${indent}  fix:`);
    for (const [index, solution] of entry.solutions.slice(0, 3).entries()) {
      lines.push(`${indent}    ${index + 1}. ${solution}`);
    }
    lines.push(`${indent}  more: paperclip-errors explain ${error.code}`);
  }
  return `${lines.join("\n")}\n`;
}
