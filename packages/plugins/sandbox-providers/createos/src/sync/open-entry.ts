import { constants, existsSync, type Stats } from "node:fs";
import { type FileHandle, lstat, open, readlink, stat } from "node:fs/promises";
import { packWindow } from "./pack-window.js";

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;

/**
 * Linux names what an open descriptor refers to, resolves names below a directory's descriptor,
 * and reopens a descriptor's own inode (whatever its name means by then).
 */
export const PROC_FD = process.platform === "linux" ? "/proc/self/fd" : undefined;

/**
 * Linux's O_PATH (Node has no constant): a descriptor that locates an inode without opening it
 * (no driver's open runs, a FIFO is not joined), yet can be fstat-ed and reopened through
 * `/proc/self/fd`. Its value is the generic one; the architectures that differ (alpha, parisc,
 * sparc) are left to the check-then-open path, as is a Linux without `/proc`.
 */
const GENERIC_O_PATH_ARCHES = new Set([
  "arm",
  "arm64",
  "ia32",
  "loong64",
  "mips",
  "mipsel",
  "ppc64",
  "riscv64",
  "s390x",
  "x64",
]);
const O_PATH =
  PROC_FD !== undefined && GENERIC_O_PATH_ARCHES.has(process.arch) && existsSync(PROC_FD)
    ? 0o10000000
    : undefined;

/** An entry opened for packing (`file`, `directory`), or a link packed as a link. */
export type Opened =
  | { readonly kind: "file" | "directory"; readonly handle: FileHandle; readonly stat: Stats }
  | { readonly kind: "link"; readonly linkpath: string; readonly stat: Stats };

/** Only these are packed, as tar packs them: a device, socket or FIFO is left out. */
function packable(stat: Stats): boolean {
  return stat.isFile() || stat.isDirectory();
}

/**
 * Opens the entry `path` (found at `lookup`) for reading, once it is judged to be a regular file
 * or a directory: a device, socket or FIFO (also behind a followed link) is never opened, since
 * opening some devices acts (a tape rewinds, a watchdog arms). Links in the last component are
 * followed only when `follow`; without it a link is packed as a link. Undefined: gone, or
 * nothing tar packs.
 *
 * On Linux the entry is located with O_PATH, judged on that descriptor's fstat, and only then
 * reopened through `/proc/self/fd/<n>`, which reaches the very inode that was judged: an entry
 * swapped for a device or a FIFO after the judgement is never opened, and a file swapped away is
 * read as it was judged.
 */
export async function openEntry(path: string, lookup: string, follow: boolean): Promise<Opened | undefined> {
  if (O_PATH === undefined) return openCheckedByName(path, lookup, follow);
  let located: FileHandle;
  try {
    located = await open(lookup, O_PATH | (follow ? 0 : O_NOFOLLOW));
  } catch (error) {
    // Gone since it was listed (or a followed link to nothing): nothing to pack.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const judged = await located.stat();
    if (judged.isSymbolicLink()) return await packedLink(lookup);
    if (!packable(judged)) return undefined;
    packWindow.beforeOpen?.(path);
    const handle = await open(`${PROC_FD}/${located.fd}`, O_RDONLY | O_NOCTTY);
    return { kind: judged.isFile() ? "file" : "directory", handle, stat: judged };
  } finally {
    await located.close();
  }
}

/**
 * Without O_PATH: judged by name first, then opened, then judged again on the descriptor. A
 * device swapped in between the first judgement and the open is opened (then closed unread);
 * the open does not block (a FIFO swapped in is not waited on) and never takes a controlling
 * terminal.
 */
async function openCheckedByName(path: string, lookup: string, follow: boolean): Promise<Opened | undefined> {
  let before: Stats;
  try {
    before = follow ? await stat(lookup) : await lstat(lookup);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  if (before.isSymbolicLink()) return packedLink(lookup);
  if (!packable(before)) return undefined;
  packWindow.beforeOpen?.(path);
  let handle: FileHandle;
  try {
    handle = await open(lookup, O_RDONLY | O_NONBLOCK | O_NOCTTY | (follow ? 0 : O_NOFOLLOW));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Swapped for a link since it was judged: packed as that link.
    if (code === "ELOOP" && !follow) return packedLink(lookup);
    // Gone since it was judged, or swapped for a socket: nothing to pack.
    if (code === "ENOENT" || code === "ENXIO") return undefined;
    throw error;
  }
  try {
    const opened = await handle.stat();
    if (opened.isFile()) return { kind: "file", handle, stat: opened };
    if (opened.isDirectory()) return { kind: "directory", handle, stat: opened };
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  return undefined;
}

/** The link at `lookup`, packed as a link (links not followed); undefined if it is no longer one. */
async function packedLink(lookup: string): Promise<Opened | undefined> {
  const linkStat = await lstat(lookup).catch(() => undefined);
  if (linkStat?.isSymbolicLink() !== true) return undefined;
  const linkpath = await readlink(lookup).catch(() => undefined);
  return linkpath === undefined ? undefined : { kind: "link", linkpath, stat: linkStat };
}
