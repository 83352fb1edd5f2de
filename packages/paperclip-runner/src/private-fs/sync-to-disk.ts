import { fsync } from "node:fs";

/** `fsync` in libuv's thread pool: the one call of a private write that waits for the disk. */
export function syncToDisk(fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    fsync(fd, (error) => (error ? reject(error) : resolve()));
  });
}
