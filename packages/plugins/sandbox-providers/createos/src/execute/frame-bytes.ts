import { lineKind } from "./line-kind.js";
import { parseFrameLine, type RawFrame } from "./output-frame.js";

const PAYLOAD_KEY = Buffer.from('"data_base64":"');
const OPEN_BRACE = 0x7b;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Pure: one NDJSON line (bytes) as a frame, or `null` for a blank line. A data frame's
 * payload is cut out of the bytes instead of being parsed as JSON: only the short rest
 * of the line (the skeleton) goes through `JSON.parse`, and the payload becomes one
 * one-byte string. That is exactly what `JSON.parse` of the whole line gives when the
 * payload holds no escape (base64 never needs one) and the skeleton is an object whose
 * `data_base64` is the empty string it was cut to (so the key was a key, and the only
 * one). Any other line, and any doubt, goes to the full parser, which decides as before.
 */
export function frameOfLine(line: Buffer): RawFrame | null {
  if (line[0] === OPEN_BRACE) {
    const frame = dataFrameByCut(line);
    if (frame !== undefined) return frame;
  }
  const text = line.toString("utf8");
  return lineKind(text) === "blank" ? null : parseFrameLine(text);
}

function dataFrameByCut(line: Buffer): RawFrame | undefined {
  const keyAt = line.indexOf(PAYLOAD_KEY);
  if (keyAt < 0) return undefined;
  const start = keyAt + PAYLOAD_KEY.length;
  const end = line.indexOf(QUOTE, start);
  if (end < 0 || line.subarray(start, end).indexOf(BACKSLASH) >= 0) return undefined;
  let skeleton: unknown;
  try {
    // Cut at ASCII quotes, so no UTF-8 sequence of the skeleton is split.
    skeleton = JSON.parse(line.toString("utf8", 0, start) + line.toString("utf8", end));
  } catch {
    return undefined;
  }
  if (typeof skeleton !== "object" || skeleton === null || Array.isArray(skeleton)) return undefined;
  const frame = skeleton as RawFrame;
  if (typeof frame.type !== "string" || frame.data_base64 !== "") return undefined;
  frame.data_base64 = line.toString("latin1", start, end);
  return frame;
}
