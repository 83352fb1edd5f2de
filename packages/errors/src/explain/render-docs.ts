import { type ErrorEntry, errorRegistry } from "../registry/registry.js";
import { packageOfFamily, renderErrorEntry } from "./explain.js";

const FAMILY_ORDER: readonly ErrorEntry["family"][] = ["errors", "sandbox", "createos", "runner"];

function renderIndex(entries: readonly ErrorEntry[]): string {
  const lines = [
    "# Paperclip error codes",
    "",
    "Generated from the registry of `@paperclipai/errors` by `paperclip-errors docs --out docs/errors`; do not edit by hand.",
    "Branch on `error.code`, never on the message. A code is never deleted or reused; a code that is no longer emitted is marked legacy.",
    "",
  ];
  for (const family of FAMILY_ORDER) {
    const members = entries.filter((entry) => entry.family === family);
    if (members.length === 0) continue;
    lines.push(`## ${packageOfFamily(family)}`, "", "| code | title |", "| --- | --- |");
    for (const entry of members) lines.push(`| [\`${entry.code}\`](./${entry.code}.md) | ${entry.title} |`);
    lines.push("");
  }
  return lines.join("\n");
}

/** The documentation tree as file name → Markdown: one page per code plus `README.md`, the index. */
export function renderErrorDocs(entries: readonly ErrorEntry[] = errorRegistry): Map<string, string> {
  const files = new Map<string, string>();
  files.set("README.md", renderIndex(entries));
  for (const entry of entries) files.set(`${entry.code}.md`, renderErrorEntry(entry));
  return files;
}
