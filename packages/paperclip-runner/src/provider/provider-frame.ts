/**
 * `JSON.stringify` writes a lone UTF-16 surrogate as an escape (`\ud800`), which JSON allows but
 * a Rust provider's `serde_json` refuses: Codex 0.156.1 answers no request in such a line (a
 * prompt with a lone surrogate left its `turn.start` pending for good). The escape is
 * `\u` plus a surrogate after an even run of backslashes (an odd one escapes the `\`); the run is
 * matched from its start only (no backslash before it), so the scan stays linear.
 */
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/**
 * Pure: one JSON-RPC message as the line a provider reads, every lone surrogate (in a key or a
 * value) replaced by U+FFFD as a lossy UTF-8 decoder (Rust's `String::from_utf8_lossy`) would.
 * `JSON.stringify` writes paired surrogates as the characters they form, so an escape left in
 * its output is always a lone one.
 */
export function providerFrame(message: Record<string, unknown>): string {
  return `${JSON.stringify(message).replace(LONE_SURROGATE_ESCAPE, "$1\\ufffd")}\n`;
}
