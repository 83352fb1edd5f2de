import type { HostLayout } from "../bwrap/host-layout.js";
import { buildNetworkOnlyScopeArgs } from "../bwrap/network-only-scope-args.js";
import {
  ETC_DIR,
  HARDENED_READ_ONLY_PATHS,
  RESOLVER_FILES,
  SYSTEM_READ_PATHS,
  SYSTEM_SECRET_PATHS,
} from "../bwrap/system-paths.js";
import { buildWorkspaceScopeArgs, type ProxyMount } from "../bwrap/workspace-scope-args.js";
import type { ParsedSpawnInput } from "./parse-spawn-input.js";
import type { SandboxMounts } from "./sandbox-mounts.js";

/**
 * Every scope's isolation. A root runner's sandbox would otherwise keep every capability
 * (bwrap keeps them for a real root), able to remount its read-only binds writable or
 * load modules.
 */
export const SANDBOX_BASE_ARGS: readonly string[] = [
  "--die-with-parent",
  "--new-session",
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-uts",
  "--cap-drop",
  "ALL",
];

/** The host paths whose kind the argv depends on (pure); the system paths matter only to the workspace scope's fresh root, the resolver files only to the network-only scope. */
export function layoutPaths(
  parsed: Pick<ParsedSpawnInput, "filesystemScope">,
  mounts: SandboxMounts,
  runDir: string | null,
): string[] {
  return [
    ...(parsed.filesystemScope ? [...SYSTEM_READ_PATHS, ...SYSTEM_SECRET_PATHS] : []),
    ...HARDENED_READ_ONLY_PATHS,
    ...(parsed.filesystemScope ? [] : [ETC_DIR, ...RESOLVER_FILES]),
    ...mounts.masks,
    ...mounts.requests.map((request) => request.path),
    ...(runDir ? [runDir] : []),
    ...mounts.socketRoots,
  ];
}

export interface ScopeArgs {
  readonly args: string[];
  /** Private directories the caller creates (empty, 0700) before spawning. */
  readonly maskDirs: string[];
}

/** bwrap's arguments for the run's scopes, up to the program (pure). */
export function scopeArgs(input: {
  parsed: Pick<ParsedSpawnInput, "filesystemScope" | "networkScope"> &
    Partial<Pick<ParsedSpawnInput, "tmpfsSize">>;
  layout: HostLayout;
  mounts: SandboxMounts;
  runDir: string | null;
  proxyMount: ProxyMount | null;
  /** Whether the runner is uid 0 (the network-only scope then shows `/etc` read-only; a writable resolver link is refused). */
  runnerIsRoot: boolean;
  /** A directory to show read-only over `/proc/1` (the exec shim's); `null`: a fresh empty one. */
  initMask: string | null;
  /** Mount points of kernel interfaces on the host outside `/proc`, `/sys`, `/dev` (`kernel-interface-mounts.ts`). */
  kernelMounts?: readonly string[];
}): ScopeArgs {
  const { parsed, layout, mounts, runDir, proxyMount, runnerIsRoot, initMask, kernelMounts = [] } = input;
  const args = [...SANDBOX_BASE_ARGS];
  let maskDirs: string[] = [];
  if (parsed.filesystemScope) {
    args.push(
      ...buildWorkspaceScopeArgs({
        layout,
        systemPaths: SYSTEM_READ_PATHS,
        secretPaths: SYSTEM_SECRET_PATHS,
        mounts: mounts.requests,
        aliases: mounts.aliases,
        proxyMount,
        socketRoots: mounts.socketRoots,
        initMask,
        tmpfsSize: parsed.tmpfsSize ?? null,
        runnerIsRoot,
        kernelMounts,
      }),
    );
  } else {
    // The mask directories live in the run directory itself (which the network-only scope
    // always has, RunDirs.create): one level less to make and remove.
    const scope = buildNetworkOnlyScopeArgs({
      layout,
      maskedPaths: mounts.masks,
      maskRoot: runDir!,
      mounts: mounts.requests,
      proxyMount,
      socketRoots: mounts.socketRoots,
      runnerIsRoot,
      initMask,
      tmpfsSize: parsed.tmpfsSize ?? null,
      kernelMounts,
    });
    maskDirs = scope.maskDirs;
    args.push(...scope.args);
  }
  if (parsed.networkScope) args.push("--unshare-net");
  return { args, maskDirs };
}
