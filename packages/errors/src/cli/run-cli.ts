import { explain } from "../explain/explain.js";
import { renderErrorDocs } from "../explain/render-docs.js";
import { PaperclipError } from "../paperclip-error.js";
import { REDACTION_GUIDE } from "../redact/redaction-guide.js";
import { errorRegistry } from "../registry/registry.js";

export const CLI_USAGE = `Usage: paperclip-errors <command>

Commands:
  list                 every documented code with its title
  explain <CODE>       the full entry of one code, as Markdown
  explain redaction    what diagnostics redact and what they keep
  docs --out <DIR>     write one Markdown file per code plus README.md (the index) into DIR

Options:
  -h, --help           show this help
`;

/** What the CLI does for an argv: text to print, files to write, and an exit status. */
export interface CliPlan {
  readonly stdout: string;
  readonly files?: { readonly dir: string; readonly contents: Map<string, string> };
}

function usageError(reason: string): PaperclipError<"ERR_ERRORS_CLI_USAGE"> {
  return new PaperclipError("ERR_ERRORS_CLI_USAGE", reason);
}

/** Decides what `paperclip-errors` does; throws coded errors for bad input. No I/O. */
export function planCli(argv: readonly string[]): CliPlan {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    return { stdout: CLI_USAGE };
  }
  if (command === "list") {
    const width = Math.max(...errorRegistry.map((entry) => entry.code.length));
    return {
      stdout: `${errorRegistry.map((entry) => `${entry.code.padEnd(width)}  ${entry.title}`).join("\n")}\n`,
    };
  }
  if (command === "explain") {
    if (rest.length !== 1 || rest[0] === undefined) throw usageError("explain takes exactly one error code.");
    if (rest[0] === "redaction") return { stdout: REDACTION_GUIDE };
    return { stdout: explain(rest[0]) };
  }
  if (command === "docs") {
    const flag = rest.indexOf("--out");
    const dir = flag === -1 ? undefined : rest[flag + 1];
    if (dir === undefined || dir.startsWith("-")) throw usageError("docs requires --out <DIR>.");
    const contents = renderErrorDocs();
    return { stdout: `wrote ${contents.size} files to ${dir}\n`, files: { dir, contents } };
  }
  throw usageError(`Unknown command "${command}". Run paperclip-errors --help.`);
}
