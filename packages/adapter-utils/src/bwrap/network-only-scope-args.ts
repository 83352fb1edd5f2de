import { maskDirPath } from "../temp-dir/run-dir-known-entries.js";
import { BindBackArgv } from "./bind-back-argv.js";
import { DEV_SHM, devArgs, sealDevArgs } from "./device-directory.js";
import { mountDestinations } from "./final-binds.js";
import { type HostLayout, kindOf } from "./host-layout.js";
import { INIT_PROC_DIR } from "./init-process-mask.js";
import { kernelMountsShownWritable } from "./kernel-interface-mounts.js";
import { isSameOrBelow, type MountRequest, orderMountRequests } from "./mount-request.js";
import { parentPins, pinTargets } from "./parent-pins.js";
import {
  assertNoResolverLinkShownWritable,
  resolverTarget,
  writableResolverFiles,
} from "./resolver-files-shown.js";
import { socketRootExposures } from "./socket-root-exposures.js";
import { ETC_DIR, HARDENED_READ_ONLY_PATHS, RESOLVER_FILES } from "./system-paths.js";
import type { ProxyMount } from "./workspace-scope-args.js";

const [PROC_SYS, SYS] = HARDENED_READ_ONLY_PATHS as [string, string];

export interface NetworkOnlyScopePlan {
  readonly layout: HostLayout;
  /** `/tmp`, `/run`, `/var/run`, `$XDG_RUNTIME_DIR`: replaced by private empty directories. */
  readonly maskedPaths: readonly string[];
  /** Per-run host directory that holds the private replacements (`<runDir>/<n>`). */
  readonly maskRoot: string;
  /** Paths the program needs that may lie under a masked one (workspace, cwd, executable…), in upstream order. */
  readonly mounts: readonly MountRequest[];
  /** This run's proxy directory: `source` (in a private socket root) shown read-only at `dest`, last. */
  readonly proxyMount: ProxyMount | null;
  /** Every private socket root of this user, masked wherever a bound-back path shows one. */
  readonly socketRoots: readonly string[];
  /**
   * The runner is root (uid 0): its sandbox, uid 0 without capabilities, may write every
   * file root owns by plain modes, so `/etc` as a whole is shown read-only.
   */
  readonly runnerIsRoot: boolean;
  /**
   * A host directory to show read-only over `/proc/1` instead of a fresh empty one: the
   * exec shim's private directory (nothing in it but the shim), so the program starts
   * from `/proc/1/<shim>` without a bind of its own. `null`: a fresh mask directory.
   */
  readonly initMask: string | null;
  /**
   * Bytes each private directory may hold. Set, `/tmp`, `/run` and the other masks are
   * tmpfs of that size (bwrap `--size`) instead of directories of the run's directory,
   * which lies in `/dev/shm` on most hosts and has no cap of its own; `null` or absent:
   * directories, as upstream's argv.
   */
  readonly tmpfsSize?: number | null;
  /** Mount points of kernel interfaces in the host tree (`kernel-interface-mounts.ts`), shown read-only. */
  readonly kernelMounts?: readonly string[];
}

export interface NetworkOnlyScopeArgs {
  readonly args: string[];
  /** Private directories the caller creates (empty, 0700) before spawning. */
  readonly maskDirs: string[];
}

/**
 * The host tree stays visible (`--bind / /`, as upstream), but the sandbox gets its
 * own `/proc`, `/dev` and private empty directories over `/tmp` and the runtime
 * directories, so it reaches neither another run's `proxy.sock` nor the host sockets
 * kept there (Docker's, D-Bus'); sockets elsewhere in the host tree stay reachable,
 * by design (docs/adapter-utils/security.md). They are bind mounts of per-run host
 * directories rather than tmpfs, which keeps upstream's own argv assertions true.
 * Paths the program needs under a masked directory are bound back.
 */
export function buildNetworkOnlyScopeArgs(plan: NetworkOnlyScopePlan): NetworkOnlyScopeArgs {
  const args = ["--bind", "/", "/", "--proc", "/proc", ...devArgs(plan.tmpfsSize ?? null)];
  if (kindOf(plan.layout, PROC_SYS).kind === "directory") args.push("--ro-bind", PROC_SYS, PROC_SYS);
  const sysAt = args.length;
  const etcRebinds = protectResolverFiles(plan, args);
  const maskDirs: string[] = [];
  const masked = maskRuntimeDirectories(plan, args, maskDirs);
  // The sandbox's `/dev/shm` is its own (`--dev`), as private as a masked directory: a
  // requested path on the host's is bound back into it, else the program never sees it.
  const tree = new BindBackArgv(args, [...masked, DEV_SHM]);
  for (const request of orderMountRequests(plan.mounts)) {
    if (kindOf(plan.layout, request.path).kind === "missing") continue;
    const before = tree.bound.length;
    tree.bindBack(request);
    // A writable bind-back (a workspace `/run`) shows what is below it as the host has it.
    if (tree.bound.length > before) args.push(...pinsBelow(plan, request));
  }
  // After the bind-backs: a writable one (a workspace `/run`), or a root runner's `/etc`
  // bound again writable, must not show the proxy's resolver files writable.
  const identity = [...etcRebinds, ...tree.bound].map((request) => ({
    source: request.path,
    dest: request.path,
    access: request.access,
  }));
  assertNoResolverLinkShownWritable(plan.layout, identity, plan.runnerIsRoot);
  for (const { hostPath, dest } of writableResolverFiles(plan.layout, identity))
    args.push("--ro-bind", hostPath, dest);
  // A chroot's `/proc` in the host tree is writable through `/` as any file is: read-only again.
  const writable = [
    { source: "/", dest: "/", covered: masked },
    ...tree.bound
      .filter((request) => request.access === "rw")
      .map(({ path }) => ({ source: path, dest: path })),
  ];
  for (const { hostPath, dest } of kernelMountsShownWritable(plan.kernelMounts ?? [], writable))
    args.push("--ro-bind", hostPath, dest);
  maskExposedSocketRoots(plan, tree.bound, args, maskDirs);
  const initAt = args.length;
  args.push("--ro-bind", plan.initMask ?? nextMaskDir(plan, maskDirs), INIT_PROC_DIR);
  if (plan.proxyMount !== null) {
    const { source, dest } = plan.proxyMount;
    tree.createParents(dest);
    args.push("--ro-bind", source, dest);
  }
  bindSysReadOnly(plan, args, sysAt, initAt);
  args.push(...sealDevArgs(plan.tmpfsSize ?? null));
  return { args, maskDirs };
}

/**
 * `/sys` read-only, bound after the scope's other mounts but the `/proc/1` mask and this
 * run's proxy directory (which stay last). bwrap 0.8 reads the whole mount table again
 * after every bind, and this recursive bind adds a copy of every mount below `/sys` (a
 * dozen cgroup v1 hierarchies on some hosts) to each read that follows it: bound late,
 * four to six fewer reads list them. A later mount in or above `/sys` (an odd
 * `$XDG_RUNTIME_DIR`) keeps it at `early`, right after `/proc/sys`, so what covers what stays.
 */
function bindSysReadOnly(plan: NetworkOnlyScopePlan, args: string[], early: number, late: number): void {
  if (kindOf(plan.layout, SYS).kind !== "directory") return;
  const inOrAbove = (dest: string) => isSameOrBelow(SYS, dest) || isSameOrBelow(dest, SYS);
  const covered = mountDestinations(args.slice(early)).some(inOrAbove);
  args.splice(covered ? early : late, 0, "--ro-bind", SYS, SYS);
}

/**
 * The host resolver's files (`RESOLVER_FILES`), which the host's proxy reads, shown
 * read-only. A root runner's sandbox gets all of `/etc` read-only (`etcReadOnly`), and
 * a link's target outside it too. For another runner (whose sandbox cannot write root's
 * `/etc`, nor so replace a link there) each file is bound onto itself, a link by its
 * real path; one into a masked directory points into the sandbox's private one, where
 * nothing of the host's is. For a root runner, the directories above a target outside
 * `/etc` are mount points too (`parentPins`: else it renames one with the file in
 * it). Returns the requested paths in `/etc` bound again, which
 * the caller checks for the resolver files they show.
 */
function protectResolverFiles(plan: NetworkOnlyScopePlan, args: string[]): MountRequest[] {
  const etcRebinds = plan.runnerIsRoot ? etcReadOnly(plan, args) : null;
  const etc = etcRebinds !== null;
  const shown = RESOLVER_FILES.flatMap((file) => {
    const target = resolverTarget(plan.layout, file);
    if (target === null || plan.maskedPaths.some((masked) => isSameOrBelow(masked, target))) return [];
    return etc && isSameOrBelow(ETC_DIR, target) ? [] : [target];
  });
  // The host tree is writable to a root runner's program: the directories above them too.
  if (plan.runnerIsRoot) args.push(...parentPins({ source: "/", dest: "/", access: "rw" }, shown));
  for (const target of shown) args.push("--ro-bind", target, target);
  return etcRebinds ?? [];
}

/**
 * `/etc` read-only, for a root runner: the resolver files and the links that name them
 * (`/etc/resolv.conf -> ../run/systemd/resolve/stub-resolv.conf`, which a per-file bind
 * left writable: its target is masked), `/etc/ld.so.preload`, cron and the rest. `/etc`
 * is then a mount point in the sandbox's namespace, so it cannot be renamed or removed
 * either (`EBUSY`). A requested path in it (workspace, cwd, an extra path; `/etc` itself)
 * is bound again after, with the access the caller chose (the resolver files excepted,
 * which the caller shows read-only again over a writable one); those are returned.
 * `null` when `/etc` is not a directory (a link is left to the per-file binds).
 */
function etcReadOnly(plan: NetworkOnlyScopePlan, args: string[]): MountRequest[] | null {
  if (kindOf(plan.layout, ETC_DIR).kind !== "directory") return null;
  args.push("--ro-bind", ETC_DIR, ETC_DIR);
  const rebinds: MountRequest[] = [];
  for (const request of orderMountRequests(plan.mounts)) {
    if (!isSameOrBelow(ETC_DIR, request.path)) continue;
    if (kindOf(plan.layout, request.path).kind === "missing") continue;
    args.push(request.access === "rw" ? "--bind" : "--ro-bind", request.path, request.path);
    args.push(...pinsBelow(plan, request));
    rebinds.push(request);
  }
  return rebinds;
}

/** The directories between a requested path bound at itself and a resolver file or socket root below it (`parentPins`). */
function pinsBelow(plan: NetworkOnlyScopePlan, request: MountRequest): string[] {
  const bind = { source: request.path, dest: request.path, access: request.access };
  return parentPins(bind, pinTargets(plan.layout, plan.socketRoots));
}

/** A fresh private directory under the run's mask root; the caller creates it before spawning. */
function nextMaskDir(plan: NetworkOnlyScopePlan, maskDirs: string[]): string {
  const replacement = maskDirPath(plan.maskRoot, maskDirs.length);
  maskDirs.push(replacement);
  return replacement;
}

/** A writable private directory's mount, up to its destination: a capped tmpfs, else a bind of a fresh mask directory. */
function privateDir(plan: NetworkOnlyScopePlan, maskDirs: string[]): string[] {
  const size = plan.tmpfsSize ?? null;
  return size === null ? ["--bind", nextMaskDir(plan, maskDirs)] : ["--size", String(size), "--tmpfs"];
}

/** Binds a private directory over each masked path (through a link to its target); returns what it masked. */
function maskRuntimeDirectories(plan: NetworkOnlyScopePlan, args: string[], maskDirs: string[]): string[] {
  const masked: string[] = [];
  for (const candidate of plan.maskedPaths) {
    const kind = kindOf(plan.layout, candidate);
    // A link such as /var/run -> /run is hidden by masking its target; binding onto a link would fail.
    const target = kind.kind === "directory" ? candidate : kind.kind === "symlink" ? kind.resolved : null;
    if (target === null || masked.some((dir) => isSameOrBelow(dir, target))) continue;
    if (kindOf(plan.layout, target).kind === "symlink") continue;
    masked.push(target);
    args.push(...privateDir(plan, maskDirs), target);
  }
  return masked;
}

/**
 * /dev is the sandbox's own and /tmp, /run are masked, which hides every socket root,
 * unless a path bound back shows one again: mask those spots too (binds, not tmpfs).
 */
function maskExposedSocketRoots(
  plan: NetworkOnlyScopePlan,
  bound: readonly MountRequest[],
  args: string[],
  maskDirs: string[],
): void {
  const identity = bound.map((request) => ({ source: request.path, dest: request.path }));
  for (const exposure of socketRootExposures(identity, plan.socketRoots)) {
    // A root missing on the host (and not creatable: a read-only or missing base) holds nothing.
    if (kindOf(plan.layout, exposure.hostPath).kind === "missing") continue;
    args.push(...privateDir(plan, maskDirs), exposure.dest);
  }
}
