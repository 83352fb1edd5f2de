/**
 * What one NDJSON line is, before it is parsed. The spec says one JSON object per line; it
 * forbids neither `\r\n` endings (JSON allows the `\r`) nor whitespace-only keep-alive lines,
 * which carry nothing and are skipped.
 */
export type LineKind = "blank" | "frame";

const JSON_WHITESPACE_ONLY = /^[ \t\r]*$/;

export function lineKind(line: string): LineKind {
  return JSON_WHITESPACE_ONLY.test(line) ? "blank" : "frame";
}

/**
 * The bytes left after the last newline when a stream ends cleanly. The last frame may lack
 * its newline, so a complete JSON object there is a frame. Anything else that could still
 * be the start of an object was cut mid-frame (a close-delimited body ends "cleanly" when
 * the connection drops): resume from the cursor. Text that can never begin an object, such
 * as a proxy's HTML page, is invalid output whatever its line ending.
 */
export type TrailingLine = "none" | "frame" | "cut" | "invalid";

export function judgeTrailingLine(rest: string): TrailingLine {
  const text = rest.replace(/^[ \t\r]+|[ \t\r]+$/g, "");
  if (text === "") return "none";
  if (!text.startsWith("{")) return "invalid";
  try {
    JSON.parse(text);
    return "frame";
  } catch {
    return "cut";
  }
}
