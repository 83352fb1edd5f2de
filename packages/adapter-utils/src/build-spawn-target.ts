import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { SandboxError } from "@paperclipai/errors";
import { bridgeCommand, bridgeReadPaths, execShimCommand, selectBridge } from "./bridge/bridge-launch.js";
import { executableReadPaths } from "./bwrap/executable-read-paths.js";
import { inspectHostLayout } from "./bwrap/host-layout.js";
import { type MountRequest, sourceOf } from "./bwrap/mount-request.js";
import { buildNetworkOnlyScopeArgs } from "./bwrap/network-only-scope-args.js";
import { resolveBindSources } from "./bwrap/resolve-bind-sources.js";
import { buildSandboxEnv } from "./bwrap/sandbox-env.js";
import {
  HARDENED_READ_ONLY_PATHS,
  NETWORK_SCOPE_MASKED_PATHS,
  SYSTEM_READ_PATHS,
} from "./bwrap/system-paths.js";
import { buildWorkspaceScopeArgs } from "./bwrap/workspace-scope-args.js";
import { normalizeAbsolutePath } from "./options/normalize-absolute-path.js";
import {
  parseLocalProcessFilesystemScope,
  parseLocalProcessFilesystemWorkspaceAccess,
  parseLocalProcessNetworkScope,
} from "./options/parse-scopes.js";
import { validatePathAliases, validateWorkspaceScope } from "./options/validate-workspace-scope.js";
import { buildNetworkPolicy, type SandboxNetworkProxy, startSandboxNetworkProxy } from "./proxy/index.js";
import type {
  LocalProcessSandboxOptions,
  LocalProcessSandboxSpawnInput,
  LocalProcessSandboxSpawnTarget,
} from "./sandbox-options.js";
import { sandboxFilterBytes } from "./seccomp/sandbox-filter.js";
import { createNetworkProxyTempDir } from "./temp-dir/create-network-proxy-temp-dir.js";
import { createPrivateSocketDir } from "./temp-dir/create-private-socket-dir.js";
import { createSandboxRunDir } from "./temp-dir/create-sandbox-run-dir.js";
import { createExposedSocketRoots } from "./temp-dir/exposed-socket-roots.js";
import { privateSocketRoots } from "./temp-dir/private-socket-roots.js";
import { removeProxyTempDir } from "./temp-dir/remove-proxy-temp-dir.js";
import { PROXY_SOCKET_NAME } from "./temp-dir/temp-dir-candidates.js";

/** Tells the native bridge a courier serves its run (native/bridge.h); removed before the program starts. */
const COURIER_ENV = "PAPERCLIP_SANDBOX_COURIER";
/**
 * Carries the seccomp filter, hex-encoded, to the native bridge or exec shim (native/own-filter.c),
 * which loads it before the program unless bwrap's --seccomp (the spawn helper's) already did:
 * a caller that spawns this argv itself gets the filter too.
 */
const SECCOMP_ENV = "PAPERCLIP_SANDBOX_SECCOMP";

/** bwrap arguments that hand the native binary the program's filter, when there is one for this arch. */
function ownFilterArgs(): string[] {
  const filter = sandboxFilterBytes();
  return filter ? ["--setenv", SECCOMP_ENV, filter.toString("hex")] : [];
}

function mountRequests(
  options: LocalProcessSandboxOptions,
  readPaths: readonly string[],
  workspace: MountRequest,
): MountRequest[] {
  const requests: MountRequest[] = readPaths.map((candidate) => ({ path: candidate, access: "ro" }));
  for (const entry of [...(options.managedPaths ?? []), ...(options.extraPaths ?? [])]) {
    requests.push({ path: normalizeAbsolutePath(entry.path, "Sandbox path"), access: entry.access });
  }
  requests.push(workspace);
  return requests;
}

function maskedPaths(): string[] {
  const runtimeDir = process.env.XDG_RUNTIME_DIR;
  return runtimeDir && path.isAbsolute(runtimeDir)
    ? [...NETWORK_SCOPE_MASKED_PATHS, path.resolve(runtimeDir)]
    : [...NETWORK_SCOPE_MASKED_PATHS];
}

/**
 * Upstream's `buildLocalProcessSandboxSpawnTarget`: the bwrap command that runs
 * `executable` confined to the requested scopes. The caller spawns it and must call
 * `cleanup()` once the process is gone (the spawn helper does).
 */
export async function buildLocalProcessSandboxSpawnTarget(
  input: LocalProcessSandboxSpawnInput,
): Promise<LocalProcessSandboxSpawnTarget> {
  if (process.platform !== "linux") {
    throw new SandboxError(
      "ERR_SANDBOX_UNSUPPORTED_PLATFORM",
      "Local process filesystem and network scopes are currently supported only on Linux.",
      { details: { platform: process.platform } },
    );
  }
  const { options } = input;
  const filesystemScope = parseLocalProcessFilesystemScope(options.filesystemScope);
  const networkScope = parseLocalProcessNetworkScope(options.networkScope);
  if (!filesystemScope && !networkScope) {
    throw new SandboxError(
      "ERR_SANDBOX_SCOPE_REQUIRED",
      "Local process sandbox requires a filesystem or network scope.",
    );
  }
  const workspaceDir = normalizeAbsolutePath(options.workspaceDir, "Sandbox workspaceDir");
  const cwd = normalizeAbsolutePath(input.cwd, "Sandbox cwd");
  const workspaceAccess = parseLocalProcessFilesystemWorkspaceAccess(options.filesystemWorkspaceAccess);
  if (filesystemScope) validateWorkspaceScope(workspaceDir, cwd, options);
  const requestedAliases = filesystemScope
    ? validatePathAliases(workspaceDir, options.pathAliases, existsSync)
    : [];
  const allowlist = networkScope === "allowlist";
  // Fails with upstream's message before anything is created when no rule remains.
  if (allowlist) buildNetworkPolicy(options.networkAllowlist ?? [], options.networkTrustedUrls ?? []);
  const bridge = allowlist ? await selectBridge(options.networkBridge) : null;

  const readPaths: string[] = [];
  if (path.isAbsolute(input.executable)) readPaths.push(...executableReadPaths(input.executable));
  if (bridge) readPaths.push(...bridgeReadPaths(bridge));
  const workspace: MountRequest = { path: workspaceDir, access: filesystemScope ? workspaceAccess : "rw" };
  const requested = mountRequests(options, readPaths, workspace);
  if (!filesystemScope) requested.push({ path: cwd, access: "rw" });
  const socketRoots = privateSocketRoots(process.getuid?.() ?? 0);
  // bwrap binds real paths: judge and bind those (refusing links that would show a socket root).
  const { requests, aliases } = resolveBindSources({
    requests: requested,
    aliases: requestedAliases,
    bindAtRealPath: !filesystemScope,
    socketRoots,
  });
  const masks = filesystemScope ? [] : maskedPaths();

  // The allowlist's directory holds proxy.sock (107-byte limit); the network-only deny
  // scope's holds only the private /tmp and masks, which may live anywhere.
  const candidates = { candidates: options.proxySocketDirCandidates };
  const runDir = allowlist
    ? await createNetworkProxyTempDir(candidates)
    : filesystemScope
      ? null
      : await createSandboxRunDir(candidates);
  let socketDir: string | null = null;
  let removeCreatedRoots: (() => Promise<void>) | null = null;
  const removeRunDir = async () => {
    await Promise.all([
      runDir ? removeProxyTempDir(runDir) : undefined,
      socketDir ? removeProxyTempDir(socketDir) : undefined,
    ]);
    await removeCreatedRoots?.();
  };

  let proxyStarting: Promise<SandboxNetworkProxy> | null = null;
  try {
    // Upstream's `<proxydir>/proxy.sock` is a link to the real socket in a private socket
    // root, which no sandbox sees; only this run's sandbox gets that directory, at <proxydir>.
    if (allowlist && runDir && bridge) {
      socketDir = createPrivateSocketDir();
      symlinkSync(path.join(socketDir, PROXY_SOCKET_NAME), path.join(runDir, PROXY_SOCKET_NAME));
      // Started now, awaited last: the courier's start overlaps the rest of the build.
      proxyStarting = startSandboxNetworkProxy({
        socketPath: path.join(socketDir, PROXY_SOCKET_NAME),
        allowlist: options.networkAllowlist ?? [],
        trustedUrls: options.networkTrustedUrls ?? [],
        onNetworkDecision: options.onNetworkDecision,
        limits: options.networkLimits,
        handoffBridge: bridge.kind === "native" ? (bridge.nativePath ?? undefined) : undefined,
      });
      // Awaited below; a failure of the build before that must not leave it unhandled.
      proxyStarting.catch(() => {});
    }
    removeCreatedRoots = createExposedSocketRoots(
      [...requests.map(sourceOf), ...aliases.map((alias) => alias.target)],
      socketRoots,
    );
    // The system paths matter only to the fresh root of the workspace scope.
    const layout = inspectHostLayout([
      ...(filesystemScope ? SYSTEM_READ_PATHS : []),
      ...HARDENED_READ_ONLY_PATHS,
      ...masks,
      ...requests.map((request) => request.path),
      ...(runDir ? [runDir] : []),
      ...socketRoots,
    ]);
    // A root runner's sandbox would otherwise keep every capability (bwrap keeps them
    // for a real root), able to remount its read-only binds writable or load modules.
    const args = [
      "--die-with-parent",
      "--new-session",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--cap-drop",
      "ALL",
    ];
    const proxyMount = runDir && socketDir ? { source: socketDir, dest: runDir } : null;
    if (filesystemScope) {
      args.push(
        ...buildWorkspaceScopeArgs({
          layout,
          systemPaths: SYSTEM_READ_PATHS,
          mounts: requests,
          aliases,
          proxyMount,
          socketRoots,
        }),
      );
    } else {
      // The mask directories live in the run directory itself: one level less to make and remove.
      const scope = buildNetworkOnlyScopeArgs({
        layout,
        maskedPaths: masks,
        maskRoot: runDir!,
        mounts: requests,
        proxyMount,
        socketRoots,
      });
      for (const dir of scope.maskDirs) mkdirSync(dir, { mode: 0o700 });
      args.push(...scope.args);
    }
    if (networkScope) args.push("--unshare-net");

    let executable = input.executable;
    let executableArgs = input.args;
    let cleanup: (() => Promise<void>) | undefined = runDir || removeCreatedRoots ? removeRunDir : undefined;
    if (bridge && runDir && socketDir && proxyStarting) {
      // Upstream's argv names <proxydir>, where the sandbox sees the private directory.
      const socketPath = path.join(runDir, PROXY_SOCKET_NAME);
      const launch = await bridgeCommand(bridge, { writeDir: socketDir, sandboxDir: runDir, socketPath });
      const proxy = await proxyStarting;
      args.push(...launch.mounts);
      // The native bridge must reach its courier, else it fails closed instead of running without.
      if (proxy.handoff) args.push("--setenv", COURIER_ENV, "1");
      if (bridge.kind === "native") args.push(...ownFilterArgs());
      executable = launch.command;
      executableArgs = [...launch.args, input.executable, ...input.args];
      let closing: Promise<void> | undefined;
      cleanup = () => {
        closing ??= proxy.close().finally(removeRunDir);
        return closing;
      };
    }
    if (!bridge) {
      // No bridge to close the program's inherited descriptors: the exec-only shim does.
      const shim = await execShimCommand();
      if (shim) {
        args.push(...shim.mounts, ...ownFilterArgs());
        executableArgs = [...shim.prefix.slice(1), executable, ...executableArgs];
        executable = shim.prefix[0]!;
      }
    }
    args.push("--chdir", cwd, "--", executable, ...executableArgs);
    const target: LocalProcessSandboxSpawnTarget = {
      command: options.command?.trim() || "bwrap",
      args,
      cwd: "/",
      env: buildSandboxEnv(networkScope),
    };
    if (cleanup) target.cleanup = cleanup;
    return target;
  } catch (error) {
    await proxyStarting?.then(
      (proxy) => proxy.close(),
      () => {},
    );
    await removeRunDir();
    throw error;
  }
}
