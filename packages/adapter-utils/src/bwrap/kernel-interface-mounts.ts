import { readFileSync } from "node:fs";
import { parseMountinfo } from "../mountinfo.js";
import { isSameOrBelow } from "./mount-request.js";

/**
 * File systems that are the kernel's own interfaces, guarded by nothing but file modes: a
 * program that is uid 0 without capabilities (a root runner's) writes `core_pattern` through
 * any `proc` mount (a pipe pattern runs a program of its choice as root outside every
 * namespace at the next crash), `register` through `binfmt_misc`, a cgroup's limits, tracing.
 */
export const KERNEL_INTERFACE_FILE_SYSTEMS: ReadonlySet<string> = new Set([
  "proc",
  "sysfs",
  "binfmt_misc",
  "debugfs",
  "tracefs",
  "bpf",
  "securityfs",
  "configfs",
  "cgroup",
  "cgroup2",
  "efivarfs",
  "pstore",
  "fusectl",
  "selinuxfs",
  "mqueue",
]);

/** The sandbox's own trees: bwrap mounts its own `/proc` and `/dev`, and `/sys` is shown read-only whole. */
const OWN_TREES = ["/proc", "/sys", "/dev"];

/**
 * The mount points of kernel interfaces outside the sandbox's own trees, from the text of
 * `/proc/self/mountinfo` (pure): a chroot's `proc` and `sys` (a build root of debootstrap,
 * mock, schroot), a second `binfmt_misc`. A bind of a directory above one shows it as the
 * host has it, writable where the bind is.
 */
export function kernelInterfaceMounts(mountinfo: string): string[] {
  const points = parseMountinfo(mountinfo)
    .filter(
      ({ fsType, mountPoint }) => KERNEL_INTERFACE_FILE_SYSTEMS.has(fsType) && mountPoint.startsWith("/"),
    )
    .map(({ mountPoint }) => mountPoint)
    .filter((point) => !OWN_TREES.some((tree) => isSameOrBelow(tree, point)));
  return [...new Set(points)];
}

/** `kernelInterfaceMounts` of this process's mount table now (a chroot's may come and go); none without `/proc`. */
export function hostKernelInterfaceMounts(): string[] {
  try {
    return kernelInterfaceMounts(readFileSync("/proc/self/mountinfo", "utf8"));
  } catch {
    return [];
  }
}

/** A writable bind (`source` on the host shown at `dest`), and the places under `dest` that something else covers. */
export interface WritableBind {
  readonly source: string;
  readonly dest: string;
  readonly covered?: readonly string[];
}

/**
 * Where each kernel interface mount below a writable bind shows (pure): bound read-only
 * again there, after the binds, it stays readable and no longer writable. Places a later
 * mount covers (the network-only scope's private `/tmp`) show nothing of the host's.
 */
export function kernelMountsShownWritable(
  kernelMounts: readonly string[],
  binds: readonly WritableBind[],
): { hostPath: string; dest: string }[] {
  const shown = new Map<string, string>();
  for (const { source, dest, covered = [] } of binds) {
    for (const point of kernelMounts) {
      if (!isSameOrBelow(source, point)) continue;
      const rest = source === "/" ? point : point.slice(source.length);
      const at = dest === "/" ? rest : `${dest}${rest}`;
      if (covered.some((place) => isSameOrBelow(place, at))) continue;
      shown.set(at, point);
    }
  }
  return [...shown].map(([dest, hostPath]) => ({ hostPath, dest }));
}
