import { redactSecrets } from "@paperclipai/errors";

/** How much of a submitted text a refusal quotes: enough to recognise it, too little to carry a pasted secret whole. */
const QUOTED_TEXT_LIMIT = 64;

/**
 * Pure: a submitted text as a refusal may quote it. Refusals go to the journal and to the
 * server, so secrets are redacted and the text is cut to `limit` characters, marked with `…`
 * (upstream quotes it whole).
 */
export function quotable(text: string, limit = QUOTED_TEXT_LIMIT): string {
  const characters = [...redactSecrets(text)];
  return characters.length <= limit ? characters.join("") : `${characters.slice(0, limit).join("")}…`;
}

/**
 * Pure: how upstream's runner (Rust, `serde_json`) words a JSON value of the wrong type,
 * so a refused `run.prepare` reads as upstream's does: `invalid type: <what came>,
 * expected <what was wanted>`.
 */
export function unexpectedValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return `string ${JSON.stringify(quotable(value))}`;
  if (typeof value === "boolean") return `boolean \`${value}\``;
  if (typeof value === "number") {
    return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  }
  if (Array.isArray(value)) return "sequence";
  return "map";
}

export function invalidType(value: unknown, expected: string): string {
  return `invalid type: ${unexpectedValue(value)}, expected ${expected}`;
}

/** The keys of an object in the order `serde_json` visits them (its maps are sorted by key). */
export function sortedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** Whether a text holds a character Rust's `char::is_control` names (U+0000–U+001F, U+007F–U+009F). */
export function hasControlCharacter(text: string): boolean {
  return /[\u0000-\u001f\u007f-\u009f]/.test(text);
}
