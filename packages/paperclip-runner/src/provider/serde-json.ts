/**
 * Pure: a JSON value as upstream's runner (Rust, `serde_json` without `preserve_order`) writes
 * it: its maps are sorted by key (byte order) at every depth, so the text a provider reads of
 * a value differs from `JSON.stringify`'s whenever a producer wrote the keys in another order
 * (the server's tool result `{success, contentItems:[{type, text}]}`, say). Values JSON cannot
 * carry are dropped as `JSON.stringify` drops them; a bare `undefined` is `null`.
 */
export function serdeJson(value: unknown): string {
  return JSON.stringify(sortedValue(value)) ?? "null";
}

function sortedValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedValue);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  // A value with its own serialisation (a Date, say) is written as JSON.stringify writes it.
  if (typeof (record as { toJSON?: unknown }).toJSON === "function") return value;
  const keys = Object.keys(record).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  // fromEntries defines own properties: a `__proto__` key stays data, not a prototype.
  return Object.fromEntries(keys.map((key) => [key, sortedValue(record[key])]));
}
