import { redactSecrets, truncateUtf8 } from "@paperclipai/errors";

/** The most bytes of one unknown flag echoed on stderr and in the diagnostic. */
export const MAX_PRINTED_FLAG_BYTES = 128;

/**
 * How an unknown flag from argv is echoed: by name only. A `--name=value` form has
 * its value replaced, whatever it looks like; the name is redacted without its
 * leading dashes, since a dash counts as a name character before `sk-` or `eyJ`
 * and would hide a token spelled as a flag (`--sk-proj-…`). Bounded.
 */
export function printableFlag(arg: string): string {
  const equals = arg.indexOf("=");
  const name = equals === -1 ? arg : arg.slice(0, equals);
  const dashes = /^-*/.exec(name)?.[0] ?? "";
  const printed = `${dashes}${redactSecrets(name.slice(dashes.length))}${equals === -1 ? "" : "=[REDACTED]"}`;
  return truncateUtf8(printed, MAX_PRINTED_FLAG_BYTES).text;
}
