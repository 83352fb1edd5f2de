/** The parts of a `stat` result the private-path policy looks at. */
export interface PrivateStats {
  readonly mode: number;
  readonly uid: number;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

/** Why a path is not acceptable as private, or `undefined` when it is. */
export type PrivateProblem = "wrong-type" | "group-or-other-access" | "wrong-owner";

/** Group and other permission bits: any of them makes a path non-private. */
export const GROUP_OR_OTHER_BITS = 0o077;

/**
 * The private-path policy of OpenSSH StrictModes and GnuPG's homedir check:
 * the right file type, no group or other bit, owned by the effective uid.
 * The mode is checked before the owner so a shared directory reports the
 * upstream (seed) failure first.
 */
export function privatePathProblem(
  stats: PrivateStats,
  expected: "directory" | "file",
  euid: number,
): PrivateProblem | undefined {
  const rightType = expected === "directory" ? stats.isDirectory() : stats.isFile();
  if (stats.isSymbolicLink() || !rightType) return "wrong-type";
  if ((stats.mode & GROUP_OR_OTHER_BITS) !== 0) return "group-or-other-access";
  if (stats.uid !== euid) return "wrong-owner";
  return undefined;
}

/** A short name for the file type, for `details.kind`. */
export function fileKind(stats: PrivateStats): string {
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isDirectory()) return "directory";
  if (stats.isFile()) return "file";
  if (stats.isFIFO()) return "fifo";
  if (stats.isSocket()) return "socket";
  if (stats.isCharacterDevice()) return "character-device";
  if (stats.isBlockDevice()) return "block-device";
  return "unknown";
}

/** The permission bits as four octal digits, as `stat -c %a` and `chmod` write them (`0755`). */
export function formatMode(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, "0");
}

let euid: number | undefined;

/**
 * The effective uid of this process (the package runs on POSIX systems only).
 * Asked once: the package never changes it, and the journal checks it before
 * every record, where a `geteuid` each time was two system calls a record.
 */
export function effectiveUid(): number {
  euid ??= process.geteuid!();
  return euid;
}
