import { constants, type Stats } from "node:fs";
import { type FileHandle, lstat, open, readdir, readlink, realpath } from "node:fs/promises";
import * as tar from "tar";
import { type Opened, openEntry, PROC_FD } from "./open-entry.js";
import { packWindow } from "./pack-window.js";
import { readSize } from "./read-size.js";

const BLOCK = 512;

/** What a pack leaves out, judged per entry; paths are the archive's (`./a/b`). */
export interface PackRules {
  /** Left out before it is opened: an excluded link is never followed, an excluded directory never listed. */
  excluded(path: string): boolean;
  /**
   * `opened` is the real path of what was opened for `path`: judged on that, not on a path looked
   * up again; `undefined` when it could not be told (no `/proc`, or the path moved meanwhile).
   */
  allows(path: string, opened: string | undefined): boolean;
  /** Told of every entry packed. */
  packed(path: string, isDirectory: boolean): void;
}

/** What tar.c's portable mode writes: owner rw always, no group or other write, listable dirs. */
function portableMode(mode: number, isDirectory: boolean): number {
  let fixed = ((mode & 0o7777) | 0o600) & ~0o22;
  if (isDirectory) {
    if (fixed & 0o400) fixed |= 0o100;
    if (fixed & 0o40) fixed |= 0o10;
    if (fixed & 0o4) fixed |= 0o1;
  }
  return fixed;
}

function header(fields: {
  path: string;
  type: "File" | "Directory" | "SymbolicLink";
  mode: number;
  size?: number;
  mtime?: Date;
  linkpath?: string;
}): Buffer {
  const head = new tar.Header({ ...fields, size: fields.size ?? 0 });
  head.encode();
  const block = head.block as Buffer;
  if (!head.needPax) return block;
  const pax = new tar.Pax({
    path: fields.path,
    linkpath: fields.linkpath,
    size: fields.size ?? 0,
    mtime: fields.mtime,
  } as ConstructorParameters<typeof tar.Pax>[0]).encode();
  return Buffer.concat([pax, block]);
}

/** Where the object behind `handle` (opened as `lookup`, `stat` its fstat) is, or undefined if unknown. */
async function openedPath(handle: FileHandle, lookup: string, stat: Stats): Promise<string | undefined> {
  if (PROC_FD !== undefined) return readlink(`${PROC_FD}/${handle.fd}`).catch(() => undefined);
  // Elsewhere: the path's real location, only while it still names the object that was opened.
  const real = await realpath(lookup).catch(() => undefined);
  if (real === undefined) return undefined;
  const now = await lstat(real).catch(() => undefined);
  return now !== undefined && now.dev === stat.dev && now.ino === stat.ino ? real : undefined;
}

/**
 * A host directory as a tar stream, made as it is read (nothing is held whole), in the shape of
 * tar's portable pack (`./`, `./a/`, `./a/b`; devices, sockets and FIFOs left out, never
 * opened). Every entry is opened first and judged on what was opened: `accept` sees its path
 * and type (excludes; a refused directory is not descended into), `check` where the opened
 * object really is, and only then are its bytes read from that same descriptor. On Linux a
 * directory's entries are listed and opened through the directory's own descriptor, so no path
 * is looked up twice: an entry another process swaps for a link once it was checked cannot
 * change what is read. Links are followed only when `follow`; a directory
 * already being packed further up (a link loop) is packed once.
 */
export async function* packDirectory(
  cwd: string,
  follow: boolean,
  rules: PackRules,
): AsyncGenerator<Uint8Array> {
  if (!rules.excluded(".")) {
    // A source that is missing or no directory fails as the file system says.
    const handle = await open(cwd, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      yield* packEntry(".", cwd, { kind: "directory", handle, stat: await handle.stat() }, follow, rules, []);
    } finally {
      await handle.close();
    }
  }
  yield Buffer.alloc(2 * BLOCK);
}

async function* packEntry(
  path: string,
  lookup: string,
  entry: Opened,
  follow: boolean,
  rules: PackRules,
  ancestors: readonly Stats[],
): AsyncGenerator<Uint8Array> {
  const { stat } = entry;
  if (entry.kind === "link") {
    rules.packed(path, false);
    yield header({
      path,
      type: "SymbolicLink",
      mode: portableMode(stat.mode, false),
      mtime: stat.mtime,
      linkpath: entry.linkpath,
    });
    return;
  }
  const opened = await openedPath(entry.handle, lookup, stat);
  if (!rules.allows(path, opened)) return;
  packWindow.afterCheck?.(path);
  rules.packed(path, entry.kind === "directory");
  if (entry.kind === "file") {
    yield header({
      path,
      type: "File",
      mode: portableMode(stat.mode, false),
      size: stat.size,
      mtime: stat.mtime,
    });
    yield* readExactly(entry.handle, stat.size, path);
    return;
  }
  if (ancestors.some((a) => a.dev === stat.dev && a.ino === stat.ino)) return;
  yield header({
    path: path === "." ? "./" : `${path}/`,
    type: "Directory",
    mode: portableMode(stat.mode, true),
    // As tar's portable pack: an extracted directory (the workspace root too) keeps its date.
    mtime: stat.mtime,
  });
  const base = PROC_FD !== undefined ? `${PROC_FD}/${entry.handle.fd}` : lookup;
  for (const name of await readdir(base)) {
    const childPath = `${path}/${name}`;
    if (rules.excluded(childPath)) continue;
    const childLookup = `${base}/${name}`;
    const child = await openEntry(childPath, childLookup, follow);
    if (child === undefined) continue;
    try {
      yield* packEntry(childPath, childLookup, child, follow, rules, [...ancestors, stat]);
    } finally {
      if (child.kind !== "link") await child.handle.close();
    }
  }
}

/** `size` bytes of the file from its descriptor, padded to whole blocks. */
async function* readExactly(handle: FileHandle, size: number, path: string): AsyncGenerator<Uint8Array> {
  yield* readSize(handle, size, path);
  const pad = (BLOCK - (size % BLOCK)) % BLOCK;
  if (pad > 0) yield Buffer.alloc(pad);
}
