import { devArgs } from "./device-directory.js";
import { INIT_PROC_DIR } from "./init-process-mask.js";
import { isSameOrBelow, type MountRequest, sourceOf } from "./mount-request.js";

/**
 * The kernel's trees of the fresh root: the sandbox's own `/proc` (its pid namespace's) and
 * no `/sys`. A requested path on or in one (`/proc`, `/proc/<pid>`, `/sys/kernel`) is not
 * bound, as the network-only scope does not bind one either: the sandbox keeps its own.
 */
const KERNEL_TREES = ["/proc", "/sys"];

/** Whether the workspace scope leaves `request` unbound: on or in `/proc` or `/sys`, as named or by its source (pure). */
export function inKernelTree(request: MountRequest): boolean {
  return KERNEL_TREES.some(
    (tree) => isSameOrBelow(tree, request.path) || isSameOrBelow(tree, sourceOf(request)),
  );
}

/**
 * What puts the fresh root's own trees back over a bind that covered them (pure): a
 * requested `/`, even read-only, bound the host's tree over the sandbox's `/proc`, `/dev`
 * and the empty `/sys`, so the program saw every host process (their environments, and
 * through `/proc/<pid>/root` and `/proc/<pid>/fd` the host's files with the host's own
 * mount flags, writable) and the host's `/dev/shm` and `/sys`. After the binds: a fresh
 * `/proc` (its `/proc/sys` read-only and `/proc/1` masked, as at the start), bwrap's `/dev`,
 * and an empty read-only `/sys`. `initMask`: the directory shown over `/proc/1`, or `null`
 * for an empty one.
 */
export function ownTreesRestored(
  dests: readonly string[],
  options: { readonly procSys: boolean; readonly initMask: string | null; readonly tmpfsSize: number | null },
): string[] {
  const covers = (tree: string) => dests.some((dest) => dest !== tree && isSameOrBelow(dest, tree));
  const args: string[] = [];
  if (covers("/proc")) {
    args.push("--proc", "/proc");
    if (options.procSys) args.push("--ro-bind", "/proc/sys", "/proc/sys");
    if (options.initMask !== null) args.push("--ro-bind", options.initMask, INIT_PROC_DIR);
    else args.push("--tmpfs", INIT_PROC_DIR, "--remount-ro", INIT_PROC_DIR);
  }
  if (covers("/dev")) args.push(...devArgs(options.tmpfsSize));
  if (covers("/sys")) args.push("--tmpfs", "/sys", "--remount-ro", "/sys");
  return args;
}
