import { isAlnum } from "../char-classes.js";
import { AT, ENDS_USERINFO, endsUserinfoPastAscii, IN_USERINFO, USERINFO_CHARS } from "./userinfo-chars.js";

/** What the URL rule reads in the text between two passwords, as offsets into it. */
export interface UrlGap {
  /** From the `@` after a password to the `:` before the next password. */
  readonly text: string;
  /** Where the next URL's userinfo starts, just past its `://`. */
  readonly userStart: number;
  /** The character that ends the host after the `@`, and with it the userinfo read before it. */
  readonly hostEnd: number;
}

/** What a character is to a userinfo (USERINFO_CHARS), past ASCII too. */
export const userinfoKind = (code: number): number =>
  code < 128 ? (USERINFO_CHARS[code] as number) : endsUserinfoPastAscii(code) ? ENDS_USERINFO : IN_USERINFO;

/**
 * The shape of `gap`, a stretch from the `@` that ends a password to the `:` that starts the
 * next, when the URL rule reads it the same way after any password: its `@` is the userinfo's
 * last and a letter or digit follows it, the first `://` past it after a letter or digit (the
 * first the rule reads a userinfo after) is the next URL's, and that URL's user holds neither
 * `:` nor `@` nor a character that ends a userinfo. Null for any other gap.
 */
export function readUrlGap(gap: string): UrlGap | null {
  const { length } = gap;
  if (gap.charCodeAt(0) !== 64 || !isAlnum(gap.charCodeAt(1))) return null;
  let hostEnd = 1;
  for (; hostEnd < length; hostEnd += 1) {
    const kind = userinfoKind(gap.charCodeAt(hostEnd));
    if (kind === ENDS_USERINFO) break;
    if (kind === AT) return null;
  }
  let schemeEnd = gap.indexOf("://", 1);
  while (schemeEnd !== -1 && !isAlnum(gap.charCodeAt(schemeEnd - 1)))
    schemeEnd = gap.indexOf("://", schemeEnd + 3);
  const userStart = schemeEnd + 3;
  if (schemeEnd === -1 || userStart >= length || gap.charCodeAt(length - 1) !== 58) return null;
  for (let index = userStart; index < length - 1; index += 1) {
    if (userinfoKind(gap.charCodeAt(index)) !== IN_USERINFO) return null;
  }
  return { text: gap, userStart, hostEnd };
}
