export const TRUNCATION_SUFFIX = "\u2026[truncated]";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8");

export interface TruncatedText {
  readonly text: string;
  readonly truncated: boolean;
}

/**
 * Cuts `text` so that its UTF-8 encoding, suffix included, is at most `maxBytes`,
 * at a character boundary. The result is always well-formed: lone surrogates
 * become U+FFFD, as they would on any UTF-8 write.
 */
export function truncateUtf8(
  text: string,
  maxBytes: number,
  suffix: string = TRUNCATION_SUFFIX,
): TruncatedText {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return { text: decoder.decode(bytes), truncated: false };
  const suffixBytes = encoder.encode(suffix).length;
  if (suffixBytes > maxBytes) return { text: "", truncated: true };
  let cut = maxBytes - suffixBytes;
  // Back off continuation bytes (10xxxxxx) so the cut lands on the first byte of a character.
  while (cut > 0 && ((bytes[cut] as number) & 0xc0) === 0x80) cut -= 1;
  return { text: decoder.decode(bytes.subarray(0, cut)) + suffix, truncated: true };
}
