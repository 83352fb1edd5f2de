/** Pure: a provider's method name as upstream repeats it: `[A-Za-z0-9._/-]` only, at most 160 characters. */
export function boundedMethod(method: string): string {
  return method.replace(/[^A-Za-z0-9._/-]/g, "").slice(0, 160);
}
