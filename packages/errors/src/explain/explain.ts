import { type ErrorEntry, findErrorEntry } from "../registry/registry.js";
import { unknownCodeError } from "./unknown-code-error.js";

const FAMILY_PACKAGE: Record<ErrorEntry["family"], string> = {
  errors: "@paperclipai/errors",
  sandbox: "@paperclipai/adapter-utils",
  createos: "@paperclipai/plugin-createos",
  runner: "@paperclipai/paperclip-runner",
};

const FAMILY_CLASS: Record<ErrorEntry["family"], string> = {
  errors: "PaperclipError",
  sandbox: "SandboxError",
  createos: "CreateosError",
  runner: "RunnerError",
};

export function packageOfFamily(family: ErrorEntry["family"]): string {
  return FAMILY_PACKAGE[family];
}

function entryStatus(entry: ErrorEntry): string {
  if (entry.emitted === false) return "legacy (no longer emitted)";
  return entry.internal === true
    ? "internal (handled inside the package, never thrown to a caller)"
    : "emitted";
}

/** Renders one registry entry as a Markdown page, in the shape of the seed error pages. */
export function renderErrorEntry(entry: ErrorEntry): string {
  const lines = [
    `# ${entry.code}: ${entry.title}`,
    "",
    `- Package: \`${FAMILY_PACKAGE[entry.family]}\``,
    `- Class: \`${FAMILY_CLASS[entry.family]}\``,
    `- Status: ${entryStatus(entry)}`,
    "",
    "## Error message",
    "",
    "```text",
    entry.message,
    "```",
    "",
    "## What it means",
    "",
    entry.meaning,
    "",
    "## When it happens",
    "",
    entry.when,
    "",
    "## Solutions",
    "",
    ...entry.solutions.map((solution, index) => `${index + 1}. ${solution}`),
    "",
    "## Prevention",
    "",
    entry.prevention,
    "",
  ];
  if (entry.example !== undefined) {
    const language = /^\s*(?:import|const|let|try|await|for|if)\b/.test(entry.example) ? "ts" : "sh";
    lines.push("## Example", "", `\`\`\`${language}`, entry.example, "```", "");
  }
  return lines.join("\n");
}

/** The Markdown documentation of a code; throws `ERR_ERRORS_UNKNOWN_CODE` for an undocumented one. */
export function explain(code: string): string {
  const entry = findErrorEntry(code);
  if (!entry) throw unknownCodeError(code);
  return renderErrorEntry(entry);
}
