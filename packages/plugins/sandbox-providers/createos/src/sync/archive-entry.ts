import { posix } from "node:path";
import { CreateosError } from "@paperclipai/errors";

export interface ArchiveEntryHeader {
  readonly path: string;
  readonly type: string;
  readonly linkpath?: string | undefined;
}

const PLAIN_TYPES = new Set(["File", "OldFile", "ContiguousFile", "Directory"]);

/** An entry that could land outside the target, or a link that leads out of it. */
export function unsafeEntry(entry: string): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_SYNC_ARCHIVE_ENTRY",
    "CreateOS archive contains unsafe entries or exceeds the extraction limit.",
    { details: { entry: entry.slice(0, 200) } },
  );
}

/** An entry (or a single file) that would take the host's file system past its extraction budget. */
export function beyondExtractionLimit(entry: string, budgetBytes: number): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_SYNC_ARCHIVE_ENTRY",
    "CreateOS archive contains unsafe entries or exceeds the extraction limit.",
    { details: { entry: entry.slice(0, 200), budgetBytes } },
  );
}

/** An entry that would leave the host's file system with fewer free inodes than its reserve. */
export function beyondEntryLimit(entry: string, budgetEntries: number): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_SYNC_ARCHIVE_ENTRY",
    "CreateOS archive contains unsafe entries or exceeds the extraction limit.",
    { details: { entry: entry.slice(0, 200), budgetEntries } },
  );
}

/**
 * The mode an extracted entry gets on the host: without its set-user-ID and set-group-ID bits,
 * nor write access for every user. The host's user (often root) writes the tree, so the first
 * would make a program the sandbox chose run as that user for anyone on the host who can reach
 * the file; the second would let any local user change what the sandbox sent (tar masks modes
 * with the process's umask only, and a worker started with umask 0 keeps 0o777 whole).
 */
export function hostEntryMode(mode: number): number {
  return mode & ~0o6002;
}

function escapes(relative: string): boolean {
  return relative === ".." || relative.startsWith("../") || posix.isAbsolute(relative);
}

/** The entry's path inside the target, or a throw for anything that could land outside it. */
export function checkArchiveEntry(header: ArchiveEntryHeader): string {
  const { path, type } = header;
  if (path.includes("\0") || posix.isAbsolute(path) || /^[A-Za-z]:/.test(path) || path.includes("\\"))
    throw unsafeEntry(path);
  if (path.split("/").includes("..")) throw unsafeEntry(path);
  const normalized = posix.normalize(path);
  if (escapes(normalized)) throw unsafeEntry(path);
  if (PLAIN_TYPES.has(type)) return normalized;
  if (type === "SymbolicLink" || type === "Link") {
    const link = header.linkpath ?? "";
    if (link === "" || link.includes("\0") || posix.isAbsolute(link)) throw unsafeEntry(path);
    // A symlink resolves from its own directory; a hard link names a path from the archive root.
    const resolved =
      type === "SymbolicLink"
        ? posix.normalize(posix.join(posix.dirname(normalized), link))
        : posix.normalize(link);
    if (escapes(resolved) || (link.split("/").includes("..") && type === "Link")) throw unsafeEntry(path);
    return normalized;
  }
  throw unsafeEntry(path);
}
