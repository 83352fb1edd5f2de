import type { FlagDefinition } from "./flag-definitions.js";

/** The `--help` text, generated from the flag table so it cannot drift from the parser. */
export function usage(definitions: Readonly<Record<string, FlagDefinition>>): string {
  const rows = Object.entries(definitions).map(([name, definition]) => {
    const left = definition.value === undefined ? name : `${name} ${definition.value}`;
    return [left, definition.description] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    "Usage: paperclip-runnerd [flags]",
    "",
    "The Paperclip runner daemon. Without transport flags it runs in local mode: controller",
    "commands as JSON lines on stdin, events and receipts as JSON lines on stdout.",
    "Flags are `--name value` pairs; the first occurrence wins; unknown flags are reported and ignored.",
    "Exit status: 0 on success, 1 on any error.",
    "",
    "Flags:",
    ...rows.map(([left, description]) => `  ${left.padEnd(width)}  ${description}`),
    "",
  ].join("\n");
}
