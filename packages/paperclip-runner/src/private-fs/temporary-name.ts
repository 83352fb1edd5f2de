/** Attempts 0..31: an existing temporary name moves on to the next attempt. */
export const TEMPORARY_ATTEMPTS = 32;

/** The temporary name of an atomic write of `name`: `.${name}.${pid}.${attempt}.tmp`. */
export function temporaryName(name: string, pid: number, attempt: number): string {
  return `.${name}.${pid}.${attempt}.tmp`;
}

/** The pid a temporary name of `name` was made by, or `undefined` when `entry` is not one. */
export function temporaryNamePid(name: string, entry: string): number | undefined {
  const prefix = `.${name}.`;
  if (!entry.startsWith(prefix) || !entry.endsWith(".tmp")) return undefined;
  const match = /^(\d{1,10})\.(\d{1,2})$/.exec(entry.slice(prefix.length, -".tmp".length));
  if (!match || Number(match[2]) >= TEMPORARY_ATTEMPTS) return undefined;
  const pid = Number(match[1]);
  return pid > 0 ? pid : undefined;
}

/** A single path component: no separator, not `.` or `..`, not empty, no NUL. */
export function isPlainFileName(name: string): boolean {
  return name.length > 0 && name !== "." && name !== ".." && !/[/\0]/.test(name);
}
