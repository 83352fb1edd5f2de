import { createHash } from "node:crypto";

/**
 * Upstream's semantic redaction (`redactPaperclipSemanticValue`), reproduced
 * exactly: the control plane recomputes `content.digest` of every
 * `semantic_tool.input` with it and refuses the session on a mismatch.
 */
const SENSITIVE_KEY =
  /(?:authorization|cookie|credential|password|passwd|private.?key|secret|token|api.?key|connection.?string)/i;
const SECRET_VALUE =
  /(?:\bBearer\s+[A-Za-z0-9._~+/=-]{8,}|\b(?:sk|pk|pcgw|ghp|github_pat)_[A-Za-z0-9_-]{8,}|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/gi;
const SECRET_QUERY = /([?&](?:code|key|secret|state|token|api[_-]?key|access[_-]?token)=)[^&#\s]+/gi;
const MAX_DEPTH = 16;
const MAX_NODES = 10_000;
const MAX_ARRAY_ITEMS = 512;
const MAX_OBJECT_KEYS = 512;
const MAX_STRING_LENGTH = 200_000;
const REDACTED = "[REDACTED]";
const TRUNCATED = "[TRUNCATED]";

export function redactSemanticValue(value: unknown): unknown {
  return redact(value, "", 0, { nodes: 0 }, new Set());
}

/** `sha256:` + hex of the canonical JSON of the redacted value (upstream's `digestPaperclipSemanticContent`). */
export function semanticContentDigest(value: unknown): string {
  return `sha256:${createHash("sha256")
    .update(semanticCanonicalJson(redactSemanticValue(value)))
    .digest("hex")}`;
}

/** Upstream's receipt canonical JSON: sorted keys, `undefined` as `null`. */
export function semanticCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(semanticCanonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${semanticCanonicalJson(record[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function redact(
  value: unknown,
  key: string,
  depth: number,
  state: { nodes: number },
  ancestors: Set<unknown>,
): unknown {
  state.nodes += 1;
  if (state.nodes > MAX_NODES || depth > MAX_DEPTH) return TRUNCATED;
  if (SENSITIVE_KEY.test(key)) return REDACTED;
  if (typeof value === "string") {
    SECRET_VALUE.lastIndex = 0;
    const redacted = value.replace(SECRET_VALUE, REDACTED).replace(SECRET_QUERY, `$1${REDACTED}`);
    SECRET_VALUE.lastIndex = 0;
    return redacted.length <= MAX_STRING_LENGTH
      ? redacted
      : `${redacted.slice(0, MAX_STRING_LENGTH)}${TRUNCATED}`;
  }
  if (Array.isArray(value)) {
    if (ancestors.has(value)) return TRUNCATED;
    ancestors.add(value);
    const result = value
      .slice(0, MAX_ARRAY_ITEMS)
      .map((child) => redact(child, "", depth + 1, state, ancestors));
    ancestors.delete(value);
    if (value.length > MAX_ARRAY_ITEMS) result.push(TRUNCATED);
    return result;
  }
  if (typeof value === "object" && value !== null) {
    if (ancestors.has(value)) return TRUNCATED;
    ancestors.add(value);
    const entries = Object.entries(value)
      .sort(([left], [right]) => left.localeCompare(right))
      .slice(0, MAX_OBJECT_KEYS)
      .map(([childKey, child]) => [childKey, redact(child, childKey, depth + 1, state, ancestors)]);
    ancestors.delete(value);
    const result: Record<string, unknown> = Object.fromEntries(entries);
    if (Object.keys(value).length > MAX_OBJECT_KEYS) result.__paperclip_truncated__ = TRUNCATED;
    return result;
  }
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "boolean" || value === null) return value;
  return TRUNCATED;
}
