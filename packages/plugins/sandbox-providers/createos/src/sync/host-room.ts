import { statfs } from "node:fs/promises";

const GIB = 1024 ** 3;

/** What a sync out leaves free on the host's file system: 5% of it, at most 1 GiB. */
export function reservedBytes(totalBytes: number): number {
  return Math.min(Math.floor(totalBytes * 0.05), GIB);
}

/**
 * How many bytes a sync out may write into `dir`'s file system: what an unprivileged writer
 * may still use there, less the reserve, so that a sandbox's tree (a sparse file of a terabyte
 * reads as a terabyte of zeros) cannot fill the disk the host and its database live on.
 */
export async function extractionBudget(dir: string): Promise<number> {
  const { bavail, blocks, bsize } = await statfs(dir);
  return Math.max(0, bavail * bsize - reservedBytes(blocks * bsize));
}
