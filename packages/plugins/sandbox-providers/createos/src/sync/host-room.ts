import { statfs } from "node:fs/promises";

const GIB = 1024 ** 3;
const MIB_ENTRIES = 1024 ** 2;

/** What a sync out leaves free on the host's file system: 5% of it, at most 1 GiB. */
export function reservedBytes(totalBytes: number): number {
  return Math.min(Math.floor(totalBytes * 0.05), GIB);
}

/** The inodes a sync out leaves free: 5% of the file system's, at most 1 Mi of them. */
export function reservedEntries(totalInodes: number): number {
  return Math.min(Math.floor(totalInodes * 0.05), MIB_ENTRIES);
}

/** What a sync out may take of the file system it writes to. */
export interface ExtractionRoom {
  /** Bytes an unprivileged writer may still use there, less the reserve. */
  readonly bytes: number;
  /** Entries (inodes) still free there, less the reserve; unbounded where the file system has no fixed number. */
  readonly entries: number;
  /** The file system's block: the least a directory takes, the unit a file's content is rounded up to. */
  readonly blockBytes: number;
}

/**
 * How much a sync out may write into `dir`'s file system: bytes and entries both, so that a
 * sandbox's tree can fill neither the disk the host and its database live on (a sparse file of a
 * terabyte reads as a terabyte of zeros) nor its inode table (a million empty files weigh no
 * byte of content, and a full inode table stops every write on the host as a full disk does).
 */
export async function extractionRoom(dir: string): Promise<ExtractionRoom> {
  const { bavail, blocks, bsize, ffree, files } = await statfs(dir);
  return {
    bytes: Math.max(0, bavail * bsize - reservedBytes(blocks * bsize)),
    // btrfs and others allocate inodes as they go and report none in all.
    entries: files === 0 ? Number.POSITIVE_INFINITY : Math.max(0, ffree - reservedEntries(files)),
    blockBytes: bsize,
  };
}

/**
 * What an entry takes on disk at least: its content in whole blocks, a directory or a symbolic
 * link one block (ext4 keeps only a link's target of under 60 bytes in its inode; one of 4 KiB,
 * which pax allows, takes a block of its own, and a sandbox may send millions of them).
 */
export function entryFootprint(type: string, size: number, blockBytes: number): number {
  if (type === "Directory" || type === "SymbolicLink") return blockBytes;
  return Math.ceil(size / blockBytes) * blockBytes;
}
