/**
 * JSON with object keys sorted at every depth (by UTF-16 code unit, as `Array.prototype.sort`
 * does), so two commands that differ only in key order get the same fingerprint. The text is
 * built here, not by `JSON.stringify` of a sorted copy: an object lists integer-like keys ("0",
 * "10") first whatever the order they were added in, where the Paperclip server's canonical JSON
 * (whose digests of our journal it recomputes) sorts them with the others. Values that JSON cannot
 * carry (undefined, functions) are dropped exactly as `JSON.stringify` drops them.
 */
export function canonicalJson(value: unknown): string {
  return encode(value) as string;
}

function encode(value: unknown): string | undefined {
  if (Array.isArray(value)) return `[${value.map((item) => encode(item) ?? "null").join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const object = value as Record<string, unknown>;
  // Own keys only, read as own properties: a `__proto__` key from JSON.parse stays data.
  const members = Object.keys(object)
    .sort()
    .flatMap((key) => {
      const text = encode(object[key]);
      return text === undefined ? [] : [`${JSON.stringify(key)}:${text}`];
    });
  return `{${members.join(",")}}`;
}
