import { sealDevArgs } from "./device-directory.js";
import { FreshRootArgv } from "./fresh-root-argv.js";
import { type HostLayout, kindOf } from "./host-layout.js";
import { kernelMountsShownWritable } from "./kernel-interface-mounts.js";
import { isSameOrBelow, type MountRequest, orderMountRequests } from "./mount-request.js";
import { inKernelTree, procMaskArgs } from "./own-trees.js";
import { parentPins, pinTargets } from "./parent-pins.js";
import { assertNoResolverLinkShownWritable, writableResolverFiles } from "./resolver-files-shown.js";
import { socketRootExposures } from "./socket-root-exposures.js";
import { systemSecretMasks } from "./system-secret-masks.js";

export interface WorkspaceScopePlan {
  readonly layout: HostLayout;
  readonly systemPaths: readonly string[];
  /** Executable, Node, managed, extra and workspace paths, in upstream order. */
  readonly mounts: readonly MountRequest[];
  /** `--bind target alias` pairs, already validated. */
  readonly aliases: readonly { readonly path: string; readonly target: string }[];
  /**
   * This run's proxy directory: `source` (in a private socket root) is shown
   * read-only at `dest` (upstream's `<proxydir>`), last, over whatever is there.
   */
  readonly proxyMount: ProxyMount | null;
  /** Directories under the system paths that hold the host's secrets (`SYSTEM_SECRET_PATHS`). */
  readonly secretPaths: readonly string[];
  /** Every private socket root of this user (`temp-dir/private-socket-roots.ts`), masked wherever a bind shows one. */
  readonly socketRoots: readonly string[];
  /**
   * A host directory to show read-only over `/proc/1` instead of an empty read-only
   * tmpfs: the exec shim's private directory (nothing in it but the shim), so the
   * program starts from `/proc/1/<shim>` without a bind of its own.
   */
  readonly initMask: string | null;
  /** Bytes each writable tmpfs may hold (bwrap `--size`); `null` or absent: no cap. */
  readonly tmpfsSize?: number | null;
  /** The runner is uid 0: its program owns root's files (`assertNoResolverLinkShownWritable`). */
  readonly runnerIsRoot: boolean;
  /** Mount points of kernel interfaces on the host (`kernel-interface-mounts.ts`), read-only below a writable bind. */
  readonly kernelMounts?: readonly string[];
}

export interface ProxyMount {
  readonly source: string;
  readonly dest: string;
}

/**
 * The fresh-root part of the bwrap argv. System paths are inspected with `lstat`:
 * a directory or file is bound, a symlink is recreated with its own target when
 * that target is visible in the sandbox (merged `/usr`: `/bin -> usr/bin`), else
 * the file it resolves to is bound in its place. Nothing is ever bound onto a
 * path that is a symlink inside the sandbox: such destinations are rewritten
 * through the link first.
 */
export function buildWorkspaceScopeArgs(plan: WorkspaceScopePlan): string[] {
  const root = new FreshRootArgv(plan.tmpfsSize ?? null);
  const procMasks = {
    procSys: kindOf(plan.layout, "/proc/sys").kind === "directory",
    initMask: plan.initMask,
  };
  root.args.push(...procMaskArgs(procMasks));
  showSystemPaths(root, plan);
  const afterBinds = boundAfter(root, plan, procMasks);
  for (const request of orderMountRequests(plan.mounts)) {
    if (kindOf(plan.layout, request.path).kind !== "missing" && !inKernelTree(request))
      afterBinds(() => root.mountRequest(request));
  }
  for (const alias of plan.aliases)
    afterBinds(() => root.bind(alias.target, root.throughLinks(alias.path), "rw"));
  // After every writable bind: one (a workspace `/run` or `/etc`) must not show the proxy's resolver files writable.
  assertNoResolverLinkShownWritable(plan.layout, root.mounted, plan.runnerIsRoot);
  for (const { hostPath, dest } of writableResolverFiles(plan.layout, root.mounted)) {
    root.args.push("--ro-bind", hostPath, dest);
  }
  // A writable bind shows the mounts below it as they are: a chroot's `/proc` in a workspace too.
  const writable = root.mounted.filter((mounted) => mounted.access === "rw");
  for (const { hostPath, dest } of kernelMountsShownWritable(plan.kernelMounts ?? [], writable))
    root.args.push("--ro-bind", hostPath, dest);
  for (const secret of systemSecretMasks(plan)) {
    const dest = root.throughLinks(secret);
    root.args.push("--tmpfs", dest, "--remount-ro", dest);
  }
  maskSocketRoots(root, plan);
  if (plan.proxyMount !== null) {
    root.bind(plan.proxyMount.source, root.throughLinks(plan.proxyMount.dest), "ro");
  }
  root.args.push(...sealDevArgs(plan.tmpfsSize ?? null));
  return root.args;
}

/**
 * Runs `bind` (a requested path or an alias) and puts right after each mount it made what
 * must follow that mount before any deeper one: the sandbox's own trees over a requested
 * `/` (`ownTreesRestored`), and the directories above a resolver file or a socket root it
 * shows writable (`parentPins`).
 */
function boundAfter(
  root: FreshRootArgv,
  plan: WorkspaceScopePlan,
  procMasks: { readonly procSys: boolean; readonly initMask: string | null },
): (bind: () => void) => void {
  const targets = pinTargets(plan.layout, plan.socketRoots);
  return (bind) => {
    const before = root.mounted.length;
    bind();
    for (const mounted of root.mounted.slice(before)) {
      root.restoreOwnTrees(mounted.dest, procMasks);
      root.args.push(...parentPins(mounted, targets));
    }
  };
}

/** Directories and files are bound; a symlink is recreated when its target is visible, else its target is bound. */
function showSystemPaths(root: FreshRootArgv, plan: WorkspaceScopePlan): void {
  const boundSystemDirs = plan.systemPaths.filter(
    (candidate) => kindOf(plan.layout, candidate).kind === "directory",
  );
  for (const systemPath of plan.systemPaths) {
    const kind = kindOf(plan.layout, systemPath);
    if (kind.kind === "directory" || kind.kind === "file") root.bind(systemPath, systemPath, "ro");
    else if (kind.kind === "symlink" && kind.resolved !== null) {
      const resolved = kind.resolved;
      if (boundSystemDirs.some((dir) => isSameOrBelow(dir, resolved))) {
        root.symlink(kind.target, systemPath, resolved);
      } else {
        root.bind(resolved, systemPath, "ro");
      }
    }
  }
}

/**
 * The fresh root hides every socket root (/dev and /tmp are the sandbox's own, /run is
 * not bound), unless a requested bind shows one again: mask those spots.
 */
function maskSocketRoots(root: FreshRootArgv, plan: WorkspaceScopePlan): void {
  for (const exposure of socketRootExposures(root.mounted, plan.socketRoots)) {
    // A root missing on the host (and not creatable: a read-only or missing base) holds nothing.
    if (kindOf(plan.layout, exposure.hostPath).kind !== "missing")
      root.args.push(...root.sized(), "--tmpfs", exposure.dest);
  }
}
