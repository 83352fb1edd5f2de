/** `value` as one POSIX shell word, whatever it contains (spaces, quotes, `$`): a `'` inside becomes `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
