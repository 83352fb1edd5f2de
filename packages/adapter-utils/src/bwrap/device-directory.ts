/** The sandbox's shared-memory directory, inside its own `/dev`. */
export const DEV_SHM = "/dev/shm";

/**
 * The sandbox's own `/dev`. bwrap's `--dev` mounts a tmpfs of its own there, with the device
 * nodes bound in and `/dev/shm` a plain directory of that tmpfs, and its `--size` applies to
 * `--tmpfs` only: under a `tmpfsSize` cap the program could still fill `/dev` and
 * `/dev/shm` with files, host memory up to half of RAM. So, capped, `/dev/shm` becomes a
 * tmpfs of that size, and `/dev`'s own tmpfs is made read-only once every mount below it is
 * made (`sealDevArgs`, last). Read-only reaches only that tmpfs (bwrap's `--remount-ro` is
 * not recursive): the nodes are mounts of their own, and device files are opened for writing
 * on a read-only mount anyway; `/dev/pts` and `/dev/shm` stay writable. Without a cap, `/dev`
 * is bwrap's, as in upstream's argv.
 */
export function devArgs(tmpfsSize: number | null): string[] {
  const args = ["--dev", "/dev"];
  if (tmpfsSize !== null) args.push("--size", String(tmpfsSize), "--tmpfs", DEV_SHM);
  return args;
}

/** After every mount of the scope: `/dev`'s own tmpfs read-only, when capped. */
export function sealDevArgs(tmpfsSize: number | null): string[] {
  return tmpfsSize === null ? [] : ["--remount-ro", "/dev"];
}
