import { devArgs } from "./device-directory.js";
import { INIT_PROC_DIR } from "./init-process-mask.js";
import { isSameOrBelow, type MountRequest, sourceOf } from "./mount-request.js";

/**
 * The sandbox's own `/proc` (its pid namespace's), `/dev` (bwrap's) and `/sys` (read-only
 * in the network-only scope, none in the workspace scope): the one list every rule about
 * them reads (`BindBackArgv`, `findHiddenWorkspace`, `inKernelTree`, `ownTreesRestored`).
 */
export const OWN_TREES = ["/proc", "/dev", "/sys"] as const;

/**
 * The kernel's trees among them: a requested path on or in one (`/proc`, `/proc/<pid>`,
 * `/sys/kernel`) is not bound, as the network-only scope does not bind one either: the
 * sandbox keeps its own.
 */
const KERNEL_TREES = OWN_TREES.filter((tree) => tree !== "/dev");

/** Whether the workspace scope leaves `request` unbound: on or in `/proc` or `/sys`, as named or by its source (pure). */
export function inKernelTree(request: MountRequest): boolean {
  return KERNEL_TREES.some(
    (tree) => isSameOrBelow(tree, request.path) || isSameOrBelow(tree, sourceOf(request)),
  );
}

export interface ProcMaskOptions {
  /** Whether the host has `/proc/sys` (it is shown read-only over the sandbox's). */
  readonly procSys: boolean;
  /** The directory shown over `/proc/1`, or `null` for an empty read-only one. */
  readonly initMask: string | null;
}

/**
 * What follows every `--proc /proc` of the workspace scope (pure): `/proc/sys` read-only
 * (uid 0 writes it by plain modes) and `/proc/1` masked (`init-process-mask.ts`).
 */
export function procMaskArgs(options: ProcMaskOptions): string[] {
  const args = options.procSys ? ["--ro-bind", "/proc/sys", "/proc/sys"] : [];
  if (options.initMask !== null) args.push("--ro-bind", options.initMask, INIT_PROC_DIR);
  else args.push("--tmpfs", INIT_PROC_DIR, "--remount-ro", INIT_PROC_DIR);
  return args;
}

/**
 * What puts the fresh root's own trees back over a bind at `dest` that covers them (pure):
 * a requested `/`, even read-only, bound the host's tree over the sandbox's `/proc`, `/dev`
 * and the empty `/sys`, so the program saw every host process (their environments, and
 * through `/proc/<pid>/root` and `/proc/<pid>/fd` the host's files with the host's own
 * mount flags, writable) and the host's `/dev/shm` and `/sys`. Right after that bind, so a
 * requested path deeper in a tree (a workspace in `/dev/shm`) still lands on top: a fresh
 * `/proc` (masked as at the start), bwrap's `/dev`, and an empty read-only `/sys`.
 */
export function ownTreesRestored(
  dest: string,
  options: ProcMaskOptions & { readonly tmpfsSize: number | null },
): string[] {
  const covered = coveredOwnTrees(dest);
  const args: string[] = [];
  if (covered.includes("/proc")) args.push("--proc", "/proc", ...procMaskArgs(options));
  if (covered.includes("/dev")) args.push(...devArgs(options.tmpfsSize));
  if (covered.includes("/sys")) args.push("--tmpfs", "/sys", "--remount-ro", "/sys");
  return args;
}

/** The sandbox's own trees a bind at `dest` covers: strictly below it (pure). */
export function coveredOwnTrees(dest: string): string[] {
  return OWN_TREES.filter((tree) => dest !== tree && isSameOrBelow(dest, tree));
}
