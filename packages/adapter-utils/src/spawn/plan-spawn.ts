import { SandboxError } from "@paperclipai/errors";
import { usableNativeBinary } from "../bridge/bridge-launch.js";
import { deferBridgeEnv } from "../bridge/deferred-env.js";
import { buildLocalProcessSandboxSpawnTarget } from "../build-spawn-target.js";
import { parseLocalProcessNetworkScope } from "../options/parse-scopes.js";
import type { LocalProcessSandboxSpawnTarget } from "../sandbox-options.js";
import { sandboxFilterBytes } from "../seccomp/sandbox-filter.js";
import { BwrapStatusReader, bwrapSupportsJsonStatus } from "./bwrap-status.js";
import { bwrapVersion } from "./bwrap-version.js";
import { applyEnvChanges, mergeChildEnv } from "./child-env.js";
import { resolveCommandPath } from "./resolve-command-path.js";
import { createRunCgroup, DEFAULT_MAX_PROCESSES, type RunCgroup } from "./run-cgroup.js";
import type { RunChildProcessOptions } from "./run-child-process.js";
import { SandboxInit } from "./sandbox-pid.js";

/** bwrap reports its status (`--json-status-fd`) on this descriptor of the spawned process. */
export const STATUS_FD = 3;
/** bwrap reads the seccomp filter (`--seccomp`) from this descriptor, written once at spawn. */
export const SECCOMP_FD = 4;

export interface SpawnPlan {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cleanup: () => Promise<void>;
  /** Set when bwrap reports its status on fd 3. */
  status: BwrapStatusReader | null;
  /** The filter bwrap reads on fd 4, when the sandbox has one. */
  seccomp: Buffer | null;
  /** Kills the whole sandbox (its cgroup, else its pid 1); called when bwrap exits. */
  killSandbox: () => Promise<void>;
  /** The sandbox's pid 1, learnt from bwrap's status. */
  init: SandboxInit;
  /** bwrap itself, for messages (`command` may be the cgroup launcher that becomes it). */
  bwrap: string | null;
}

/** What to spawn for a run: the command itself, or bwrap (through the cgroup launcher) around it. */
export async function planSpawn(
  command: string,
  args: string[],
  opts: RunChildProcessOptions,
): Promise<SpawnPlan> {
  const sandbox = opts.localProcessSandbox ?? null;
  const env = mergeChildEnv(process.env, opts.env, sandbox?.homeDir);
  const requestedBwrap = sandbox ? sandbox.command?.trim() || "bwrap" : null;
  // Both lookups at once; their failures are still reported command first.
  const [resolved, bwrap] = await Promise.all([
    resolveCommandPath(command, opts.cwd, env),
    requestedBwrap ? resolveCommandPath(requestedBwrap, opts.cwd, env) : null,
  ]);
  if (!sandbox || !requestedBwrap) {
    return {
      command: resolved ?? command,
      args,
      cwd: opts.cwd,
      env: applyEnvChanges(env, {}),
      cleanup: async () => {},
      status: null,
      seccomp: null,
      killSandbox: async () => {},
      init: new SandboxInit(),
      bwrap: null,
    };
  }
  if (!resolved) {
    throw new SandboxError("ERR_SANDBOX_COMMAND_NOT_FOUND", `Command not found in PATH: "${command}"`, {
      details: { command },
    });
  }
  if (!bwrap) {
    throw new SandboxError(
      "ERR_SANDBOX_BWRAP_NOT_FOUND",
      `Local process confinement requires Bubblewrap, but "${requestedBwrap}" was not found in PATH. Install bwrap or configure filesystemSandboxCommand.`,
      { details: { command: requestedBwrap } },
    );
  }
  const target: LocalProcessSandboxSpawnTarget = await buildLocalProcessSandboxSpawnTarget({
    executable: resolved,
    args,
    cwd: opts.cwd,
    options: sandbox,
  });
  const targetCleanup = target.cleanup ?? (async () => {});
  const init = new SandboxInit();
  let cgroup: RunCgroup | null = null;
  const killSandbox = async () => {
    init.kill();
    await cgroup?.kill();
  };
  const cleanup = async () => {
    await killSandbox();
    await cgroup?.remove();
    await targetCleanup();
  };
  try {
    const version = await bwrapVersion(bwrap);
    const status = version !== null && bwrapSupportsJsonStatus(version) ? new BwrapStatusReader() : null;
    const seccomp = sandboxFilterBytes();
    const bwrapArgs = [
      ...(status ? ["--json-status-fd", String(STATUS_FD)] : []),
      ...(seccomp ? ["--seccomp", String(SECCOMP_FD)] : []),
      ...target.args,
    ];
    // Every process of the sandbox is born in the run's cgroup: the native binary joins it
    // and becomes bwrap (Node cannot place a child in a cgroup before it forks).
    const launcher = await usableNativeBinary();
    cgroup = launcher ? createRunCgroup(sandbox.maxProcesses ?? DEFAULT_MAX_PROCESSES) : null;
    const sandboxEnv = applyEnvChanges(env, target.env);
    return {
      command: cgroup && launcher ? launcher : bwrap,
      args: cgroup && launcher ? ["--cgroup", cgroup.procsFile, "--", bwrap, ...bwrapArgs] : bwrapArgs,
      cwd: target.cwd,
      // The bridge starts faster without them; it hands them to the program unchanged.
      env:
        parseLocalProcessNetworkScope(sandbox.networkScope) === "allowlist"
          ? deferBridgeEnv(sandboxEnv)
          : sandboxEnv,
      cleanup,
      status,
      seccomp,
      killSandbox,
      init,
      bwrap,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
