import path from "node:path";
import type { BridgeChoice } from "./bridge/bridge-choice.js";
import { selectBridge, usableExecShim } from "./bridge/bridge-launch.js";
import { deferBridgeEnvChanges } from "./bridge/deferred-env.js";
import { BINDS_ENV, bindIdentities } from "./bwrap/bind-identities.js";
import { inspectHostLayout } from "./bwrap/host-layout.js";
import { hostKernelInterfaceMounts } from "./bwrap/kernel-interface-mounts.js";
import { buildSandboxEnv } from "./bwrap/sandbox-env.js";
import { type SandboxNetworkProxy, startSandboxNetworkProxy } from "./proxy/index.js";
import type {
  LocalProcessSandboxOptions,
  LocalProcessSandboxSpawnInput,
  LocalProcessSandboxSpawnTarget,
} from "./sandbox-options.js";
import { bwrapNotFound } from "./spawn/bwrap-not-found.js";
import { resolveBwrapPath } from "./spawn/resolve-command-path.js";
import { rememberCourierToken } from "./spawn-target/courier-token.js";
import { moveLoaderEnv } from "./spawn-target/loader-env.js";
import { parseSpawnInput } from "./spawn-target/parse-spawn-input.js";
import { bridgeLaunch, type ProgramLaunch, shimLaunch } from "./spawn-target/program-launch.js";
import { RunDirs } from "./spawn-target/run-dirs.js";
import { judgedSources, sandboxMounts } from "./spawn-target/sandbox-mounts.js";
import { layoutPaths, scopeArgs } from "./spawn-target/scope-args.js";

/**
 * The target's `command`. Upstream's is the name as configured (`"bwrap"`), which the
 * caller's spawn looks up on the PATH of the env it passes: the program's, which may name
 * the workspace. A caller that gives the builder that env gets bwrap resolved on this
 * process's PATH instead (absolute), as the spawn helper does; not found there, the build
 * throws `ERR_SANDBOX_BWRAP_NOT_FOUND`: the bare name would be looked up on that env's PATH.
 */
function targetCommand(options: LocalProcessSandboxOptions, env: unknown, cwd: string): string {
  const requested = options.command?.trim() || "bwrap";
  if (env === undefined || env === null || requested.includes("/")) return requested;
  const resolved = resolveBwrapPath(requested, cwd);
  if (!resolved) throw bwrapNotFound(requested);
  return resolved;
}

/**
 * Starts the run's proxy on its private socket, now: awaited last, so the courier's start
 * overlaps the rest of the build. A failure before that must not go unhandled.
 */
function startRunProxy(
  dirs: RunDirs,
  runDir: string,
  bridge: BridgeChoice,
  options: LocalProcessSandboxOptions,
): Promise<SandboxNetworkProxy> {
  const proxy = startSandboxNetworkProxy({
    socketPath: dirs.openSocketDir(runDir),
    allowlist: options.networkAllowlist ?? [],
    trustedUrls: options.networkTrustedUrls ?? [],
    onNetworkDecision: options.onNetworkDecision,
    limits: options.networkLimits,
    handoffBridge: bridge.kind === "native" ? (bridge.nativePath ?? undefined) : undefined,
  });
  proxy.catch(() => {});
  return proxy;
}

/** What removes the run's traces once its process is gone: the proxy first, then its directories. */
function runCleanup(dirs: RunDirs, proxy: Promise<SandboxNetworkProxy> | null) {
  if (proxy) {
    let closing: Promise<void> | undefined;
    return () => {
      closing ??= proxy.then((started) => started.close()).finally(() => dirs.remove());
      return closing;
    };
  }
  return dirs.created ? () => dirs.remove() : undefined;
}

/**
 * Upstream's `buildLocalProcessSandboxSpawnTarget`: the bwrap command that runs
 * `executable` confined to the requested scopes. The caller spawns it and must call
 * `cleanup()` once the process is gone (the spawn helper does).
 */
export async function buildLocalProcessSandboxSpawnTarget(
  input: LocalProcessSandboxSpawnInput,
): Promise<LocalProcessSandboxSpawnTarget> {
  const parsed = parseSpawnInput(input);
  // bwrap runs on the host: a loader variable meant for the program must not load code into it.
  // The host's own (unchanged) loader variables are trusted and stay.
  const loaderEnv = moveLoaderEnv(input.env, input.hostEnv ?? process.env);
  const { options } = input;
  // Before anything is created: a missing bwrap leaves nothing behind.
  const command = targetCommand(options, input.env, parsed.cwd);
  const bridge = parsed.networkScope === "allowlist" ? await selectBridge(options.networkBridge) : null;
  const mounts = sandboxMounts(input, parsed, bridge);
  const dirs = await RunDirs.create(parsed, options.proxySocketDirCandidates);
  let proxy: Promise<SandboxNetworkProxy> | null = null;
  try {
    // Upstream's `<proxydir>/proxy.sock` links to the real socket in a private socket
    // root, which no sandbox sees; only this run's sandbox gets that directory, at <proxydir>.
    if (bridge && dirs.runDir) proxy = startRunProxy(dirs, dirs.runDir, bridge, options);
    dirs.exposeSocketRoots(mounts);
    const { runDir, socketDir } = dirs;
    const bridged = bridge && proxy && runDir && socketDir ? { bridge, proxy, runDir, socketDir } : null;
    // The shim's own directory (nothing else in it) is the read-only `/proc/1` mask of
    // every start where it is usable, run or not: no shim bind, no empty mask to make.
    // Every program starts through the shim where it is usable, the spawn helper's too (its
    // spare closed the descriptors, bwrap loads `--seccomp`) and a bridge's (which execs it):
    // the shim checks that the binds show what the builders judged (bind-identities.ts).
    const shim = await usableExecShim();
    const initMask = shim ? path.dirname(shim) : null;
    const scope = scopeArgs({
      parsed,
      layout: inspectHostLayout(layoutPaths(parsed, mounts, runDir)),
      mounts,
      runDir,
      proxyMount: runDir && socketDir ? { source: socketDir, dest: runDir } : null,
      runnerIsRoot: process.geteuid?.() === 0,
      initMask,
      kernelMounts: hostKernelInterfaceMounts(),
    });
    dirs.createMaskDirs(scope.maskDirs, scope.args);
    const program = { executable: input.executable, args: input.args };
    const shimmed = shimLaunch(program, shim);
    const launch: ProgramLaunch = bridged
      ? await bridgeLaunch(bridged.bridge, bridged, bridged.proxy, {
          executable: shimmed.command,
          args: shimmed.args,
        })
      : shimmed;
    const target: LocalProcessSandboxSpawnTarget = {
      command,
      args: [
        ...scope.args,
        ...loaderEnv.bwrapArgs,
        ...launch.bwrapArgs,
        ...(shim ? ["--setenv", BINDS_ENV, bindIdentities(scope.args, judgedSources(mounts))] : []),
        "--chdir",
        parsed.cwd,
        "--",
        launch.command,
        ...launch.args,
      ],
      cwd: "/",
      // Under a bridge, NODE_USE_ENV_PROXY reaches the program past the bridge's own start.
      env: {
        ...(bridged
          ? deferBridgeEnvChanges(buildSandboxEnv(parsed.networkScope))
          : buildSandboxEnv(parsed.networkScope)),
        ...loaderEnv.overlay,
      },
    };
    if (launch.courierToken) rememberCourierToken(target, launch.courierToken);
    const cleanup = runCleanup(dirs, proxy);
    if (cleanup) target.cleanup = cleanup;
    return target;
  } catch (error) {
    await proxy?.then(
      (started) => started.close(),
      () => {},
    );
    await dirs.remove();
    throw error;
  }
}
