/**
 * The host drops a live-log chunk that is empty or too large, so long decoded chunks are cut
 * into pieces of at most `maxChars` (never inside a surrogate pair); joined, they are the
 * original text.
 */
export const LIVE_LOG_CHUNK_CHARS = 16 * 1024;

export function splitForLiveLog(text: string, maxChars: number = LIVE_LOG_CHUNK_CHARS): string[] {
  if (text.length <= maxChars) return text === "" ? [] : [text];
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + maxChars, text.length);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}
