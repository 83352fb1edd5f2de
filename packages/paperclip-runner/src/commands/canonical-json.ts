/**
 * JSON with object keys sorted at every depth, so two commands that differ only
 * in key order get the same fingerprint. Values that JSON cannot carry
 * (undefined, functions) are dropped exactly as `JSON.stringify` drops them.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  // fromEntries defines own properties: a `__proto__` key from JSON.parse stays data, not a prototype.
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
