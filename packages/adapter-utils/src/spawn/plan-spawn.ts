import { SandboxError } from "@paperclipai/errors";
import { usableNativeBinary } from "../bridge/bridge-launch.js";
import { deferBridgeEnv, restoreDeferredEnv } from "../bridge/deferred-env.js";
import { buildLocalProcessSandboxSpawnTarget } from "../build-spawn-target.js";
import { parseLocalProcessNetworkScope } from "../options/parse-scopes.js";
import type { LocalProcessSandboxOptions, LocalProcessSandboxSpawnTarget } from "../sandbox-options.js";
import { sandboxFilterBytes } from "../seccomp/sandbox-filter.js";
import { courierTokenOf } from "../spawn-target/courier-token.js";
import { bwrapNotFound } from "./bwrap-not-found.js";
import { BwrapStatusReader, bwrapSupportsJsonStatus } from "./bwrap-status.js";
import { bwrapVersion } from "./bwrap-version.js";
import { applyEnvChanges, mergeChildEnv } from "./child-env.js";
import { resolveBwrapPath, resolveCommandPath } from "./resolve-command-path.js";
import { createRunCgroup, DEFAULT_MAX_PROCESSES, type RunCgroup } from "./run-cgroup.js";
import type { RunChildProcessOptions } from "./run-child-process.js";
import { SandboxInit } from "./sandbox-pid.js";
import { refillSpareLauncher, type SpareLauncher, takeSpareLauncher } from "./spare-launcher.js";
import { withoutOwnFilterEnv } from "./without-own-filter-env.js";

/** bwrap reports its status (`--json-status-fd`) on this descriptor of the spawned process. */
export const STATUS_FD = 3;
/** bwrap reads the seccomp filter (`--seccomp`) from this descriptor, written once at spawn. */
export const SECCOMP_FD = 4;
/** A run still going this long gets the next spare started beside it, for a run that starts alongside. */
const SPARE_REFILL_DELAY_MS = 50;

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
  /** A launcher already inside the run's cgroup, which becomes `command` (bwrap) instead of a new spawn. */
  spare: SpareLauncher | null;
  /** What the run's native bridge prints if it cannot reach its courier (courier-token.ts), else `null`. */
  courierToken: string | null;
}

/** How bwrap starts: through a waiting spare, through the cgroup launcher, or directly (pure). */
export function launchCommand(input: {
  bwrap: string;
  bwrapArgs: string[];
  launcher: string | null;
  cgroup: RunCgroup | null;
  spare: SpareLauncher | null;
}): { command: string; args: string[] } {
  const { bwrap, bwrapArgs, launcher, cgroup, spare } = input;
  if (spare || !launcher || !cgroup) return { command: bwrap, args: bwrapArgs };
  return { command: launcher, args: ["--cgroup", cgroup.procsFile, "--", bwrap, ...bwrapArgs] };
}

/**
 * bwrap's own options of the spawn helper (status and filter descriptors), before the target's,
 * which lose the filter's variable where `--seccomp` loads the filter (pure).
 */
export function helperBwrapArgs(status: boolean, seccomp: boolean, targetArgs: readonly string[]): string[] {
  return [
    ...(status ? ["--json-status-fd", String(STATUS_FD)] : []),
    ...(seccomp ? ["--seccomp", String(SECCOMP_FD), ...withoutOwnFilterEnv(targetArgs)] : targetArgs),
  ];
}

/** The command, resolved on the run's PATH, and bwrap, on the host's; failures are reported command first. */
function resolveCommands(
  command: string,
  requestedBwrap: string,
  cwd: string,
  env: Record<string, string | undefined>,
  workspace: string | null,
): { resolved: string; bwrap: string } {
  const resolved = resolveCommandPath(command, cwd, env);
  // Never on the run's PATH, nor in its workspace: bwrap runs on the host.
  const bwrap = resolveBwrapPath(requestedBwrap, cwd, process.env, workspace);
  if (!resolved) {
    throw new SandboxError("ERR_SANDBOX_COMMAND_NOT_FOUND", `Command not found in PATH: "${command}"`, {
      details: { command },
    });
  }
  if (!bwrap) {
    throw bwrapNotFound(requestedBwrap);
  }
  return { resolved, bwrap };
}

/**
 * The run's cgroup: the waiting spare's when there is one (it joined ahead of need),
 * else a new one for the launcher to join. The next spare starts once this run is over,
 * or `SPARE_REFILL_DELAY_MS` into a longer one: its fork and its cgroup join (in cgroup
 * v1 the join holds the cgroup lock through an RCU grace period, milliseconds) raced
 * this run's start for the cores, and its end waited on that lock to remove its cgroup.
 */
function runCgroupFor(
  launcher: string | null,
  maxProcesses: number,
  stdio: RunChildProcessOptions["stdio"],
): { cgroup: RunCgroup | null; spare: SpareLauncher | null; refill: () => void } {
  if (!launcher) return { cgroup: null, spare: null, refill: () => {} };
  // A spare's stdio is pipes: a run on the caller's terminal spawns its own launcher.
  const spare = stdio === "inherit" ? null : takeSpareLauncher(launcher, maxProcesses);
  const refill = stdio === "inherit" ? () => {} : spareRefill(launcher);
  return { cgroup: spare?.cgroup ?? createRunCgroup(maxProcesses), spare, refill };
}

/** Starts the next spare once, when called or after `SPARE_REFILL_DELAY_MS`, whichever comes first. */
function spareRefill(launcher: string): () => void {
  const timer = setTimeout(() => refillSpareLauncher(launcher), SPARE_REFILL_DELAY_MS);
  timer.unref();
  return () => {
    clearTimeout(timer);
    refillSpareLauncher(launcher);
  };
}

/** What to spawn for a run: the command itself, or bwrap (through the cgroup launcher) around it. */
export async function planSpawn(
  command: string,
  args: string[],
  opts: RunChildProcessOptions,
): Promise<SpawnPlan> {
  const sandbox = opts.localProcessSandbox ?? null;
  const env = mergeChildEnv(process.env, opts.env, sandbox?.homeDir);
  if (!sandbox) {
    const resolved = resolveCommandPath(command, opts.cwd, env);
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
      spare: null,
      courierToken: null,
    };
  }
  const { resolved, bwrap } = resolveCommands(
    command,
    sandbox.command?.trim() || "bwrap",
    opts.cwd,
    env,
    // Checked by the builder, after: an invalid one must still get the builder's own error.
    typeof sandbox.workspaceDir === "string" ? sandbox.workspaceDir : null,
  );
  return planSandboxSpawn(resolved, args, opts, sandbox, env, bwrap);
}

/** The environment bwrap starts with: the run's, with the sandbox's changes. */
function sandboxEnv(
  sandbox: LocalProcessSandboxOptions,
  env: Record<string, string | undefined>,
  changes: Record<string, string | undefined> | undefined,
): Record<string, string> {
  // The builder's changes carry what its own callers' bridge must not start with; here the
  // whole env is deferred at once below, so they are taken back under their own names first.
  const changed = applyEnvChanges(env, changes && restoreDeferredEnv(changes));
  // The bridge starts faster without them; it hands them to the program unchanged.
  return parseLocalProcessNetworkScope(sandbox.networkScope) === "allowlist"
    ? deferBridgeEnv(changed)
    : changed;
}

async function planSandboxSpawn(
  executable: string,
  args: string[],
  opts: RunChildProcessOptions,
  sandbox: LocalProcessSandboxOptions,
  env: Record<string, string | undefined>,
  bwrap: string,
): Promise<SpawnPlan> {
  const init = new SandboxInit();
  let cgroup: RunCgroup | null = null;
  let target: LocalProcessSandboxSpawnTarget | null = null;
  let spare: SpareLauncher | null = null;
  let refill = () => {};
  const killSandbox = async () => {
    init.kill();
    await cgroup?.kill();
  };
  const cleanup = async () => {
    await killSandbox();
    // Nothing of the sandbox runs any more: its cgroup and its directories go side by side.
    await Promise.all([cgroup?.remove(), target?.cleanup?.()]);
    // After the caller has its result: the spare's spawn blocks this thread a while.
    setImmediate(refill);
  };
  try {
    const [version, launcher] = await Promise.all([bwrapVersion(bwrap), usableNativeBinary()]);
    const status = version !== null && bwrapSupportsJsonStatus(version) ? new BwrapStatusReader() : null;
    const seccomp = sandboxFilterBytes();
    // Every process of the sandbox is born in the run's cgroup: the native binary joins it
    // and becomes bwrap (Node cannot place a child in a cgroup before it forks).
    const run = runCgroupFor(launcher, sandbox.maxProcesses ?? DEFAULT_MAX_PROCESSES, opts.stdio);
    cgroup = run.cgroup;
    spare = run.spare;
    refill = run.refill;
    // With the run's env, its loader variables reach the program through bwrap's argv only.
    target = await buildLocalProcessSandboxSpawnTarget({
      executable,
      args,
      cwd: opts.cwd,
      options: sandbox,
      env,
    });
    const bwrapArgs = helperBwrapArgs(status !== null, seccomp !== null, target.args);
    return {
      ...launchCommand({ bwrap, bwrapArgs, launcher, cgroup, spare: run.spare }),
      cwd: target.cwd,
      env: sandboxEnv(sandbox, env, target.env),
      cleanup,
      status,
      seccomp,
      killSandbox,
      init,
      bwrap,
      spare: run.spare,
      courierToken: courierTokenOf(target),
    };
  } catch (error) {
    // A spare taken for this run and never launched may not have joined the run's cgroup yet
    // (taken right after it started), so the cgroup's kill can miss it: held for the run, it
    // would keep the host process alive for good.
    spare?.child.kill("SIGKILL");
    await cleanup();
    throw error;
  }
}
