import { escapeForPattern } from "../pattern-source.js";
import type { RedactionContext } from "../redaction-context.js";
import type { Rewriter } from "../rewriter.js";
import { readUrlGap, type UrlGap, userinfoKind } from "./url-gap.js";
import { IN_USERINFO, MAX_USERINFO } from "./userinfo-chars.js";

// Passwords redacted one at a time before the rest of a run is matched CHUNK at a time: building
// the pattern costs about what this many passwords read one by one do.
const PROVEN_RUN = 128;
const CHUNK = 32;
// The longest gap compared: a password every few words is a run worth reading this way, while a
// longer gap costs more to compare than the rule's own search takes to skip it.
const MAX_GAP = 256;

/**
 * The source of a pattern that matches `count` passwords, each followed by `gap`, and captures
 * the last: a password is what the URL rule redacts there, one to `maxLength` characters that
 * neither end a userinfo nor hold its `@`, other than the replacement already put there.
 */
export function repeatedPasswordsSource(
  gap: string,
  replacement: string,
  maxLength: number,
  count: number,
): string {
  const password = `(?!${escapeForPattern(replacement)}@)[^\\t-\\r \\/?#"<>\`\\\\\\u00a0\\u2028\\u2029@]{1,${maxLength}}`;
  const after = escapeForPattern(gap);
  return `(?:${password}${after}){${count - 1}}(${password})${after}`;
}

// The last pattern built, for the next piece of the same text (the rule runs piece by piece).
let lastChunk: { readonly gap: string; readonly replacement: string; readonly pattern: RegExp } | undefined;

function chunkPattern(gap: UrlGap, replacement: string, maxLength: number): RegExp {
  if (lastChunk?.gap !== gap.text || lastChunk.replacement !== replacement) {
    const source = repeatedPasswordsSource(gap.text, replacement, maxLength, CHUNK);
    lastChunk = { gap: gap.text, replacement, pattern: new RegExp(source, "y") };
  }
  return lastChunk.pattern;
}

/**
 * After the URL rule redacted a password that ends at `at` and follows the gap
 * `[gapStart, gapEnd)`: while the text goes on with that gap and another password (a URL
 * repeated with a different password each time), redacts those passwords as the rule's scan
 * would, reading only each password and comparing the gap (see readUrlGap), and makes the
 * replacements one native repeat. Returns the `@` after the last password redacted (`at` when
 * none was): the scan resumes past it.
 */
export function redactRepeatedUrls(
  text: string,
  gapStart: number,
  gapEnd: number,
  at: number,
  rewriter: Rewriter,
  context: RedactionContext,
): number {
  const length = gapEnd - gapStart;
  if (length > MAX_GAP || !repeatsAt(text, gapStart, at, length, context)) return at;
  const gap = readUrlGap(text.slice(gapStart, gapEnd));
  if (gap === null) return at;
  // The scan reads a userinfo up to its bound: the host's end must come before it.
  const maxLength = MAX_USERINFO - gap.hostEnd - (length - gap.userStart) - 1;
  const { replacement } = context;
  let count = 0;
  let lastAt = at;
  let lastStart = at;
  let chunks = maxLength > 0;
  while (true) {
    const start = lastAt + length;
    if (chunks && count >= PROVEN_RUN) {
      const pattern = chunkPattern(gap, replacement, maxLength);
      pattern.lastIndex = start;
      const match = pattern.exec(text);
      if (match !== null) {
        context.steps += pattern.lastIndex - start;
        count += CHUNK;
        lastAt = pattern.lastIndex - length;
        lastStart = lastAt - (match[1] as string).length;
        continue;
      }
      chunks = false;
    }
    const stop = Math.min(text.length, start + maxLength + 1);
    let end = start;
    while (end < stop && isPasswordChar(text.charCodeAt(end))) end += 1;
    context.steps += end - start + 1;
    if (end === start || end === stop || text.charCodeAt(end) !== 64) break;
    if (end - start === replacement.length && text.startsWith(replacement, start)) break;
    if (!repeatsAt(text, gapStart, end, length, context)) break;
    count += 1;
    lastStart = start;
    lastAt = end;
  }
  if (count > 0) rewriter.replaceAfterEach(gap.text, count, lastStart, lastAt);
  return lastAt;
}

// A character of a password read up to its `@`: anything but an `@` and what ends a userinfo.
const isPasswordChar = (code: number): boolean => code === 58 || userinfoKind(code) === IN_USERINFO;

/** Whether `[start, start + length)` equals `[from, from + length)`, compared in place. */
function repeatsAt(
  text: string,
  from: number,
  start: number,
  length: number,
  context: RedactionContext,
): boolean {
  if (start + length > text.length) return false;
  let index = 0;
  while (index < length && text.charCodeAt(from + index) === text.charCodeAt(start + index)) index += 1;
  context.steps += index;
  return index === length;
}
