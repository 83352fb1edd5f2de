import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { SECCOMP_FD, type SpawnPlan } from "./plan-spawn.js";
import type { RunChildProcessOptions } from "./run-child-process.js";
import { launchSpare } from "./spare-launcher.js";
import { spawnFailure } from "./spawn-failure.js";
import type { StdioRoute } from "./stdio-route.js";

/**
 * The child's descriptors (pure): stdio (the caller's, each passed on or relayed through a
 * pipe as `routes` says, or pipes), then bwrap's status and filter pipes.
 */
export function childStdio(
  opts: Pick<RunChildProcessOptions, "stdio" | "stdin">,
  plan: { status: unknown; seccomp: unknown },
  routes: readonly StdioRoute[] = ["inherit", "inherit", "inherit"],
): StdioOptions {
  const stdio: ("pipe" | "inherit" | "ignore")[] =
    opts.stdio === "inherit"
      ? routes.map((route) => (route === "relay" ? "pipe" : "inherit"))
      : [opts.stdin != null ? "pipe" : "ignore", "pipe", "pipe"];
  return [...stdio, plan.status ? "pipe" : "ignore", ...(plan.seccomp ? (["pipe"] as const) : [])];
}

function spawnPlanned(
  plan: SpawnPlan,
  opts: RunChildProcessOptions,
  routes: readonly StdioRoute[] | undefined,
): ChildProcess {
  if (plan.spare) {
    return launchSpare(plan.spare, {
      command: plan.command,
      args: plan.args,
      env: plan.env,
      cwd: plan.cwd,
      stdin: opts.stdin != null,
      status: plan.status !== null,
      seccomp: plan.seccomp !== null,
    });
  }
  return spawn(plan.command, plan.args, {
    cwd: plan.cwd,
    env: plan.env,
    detached: true,
    shell: false,
    stdio: childStdio(opts, plan, routes),
  });
}

/**
 * Starts the planned process in its own process group (a waiting spare launcher, or a
 * new spawn) and hands bwrap its filter; a spawn that fails cleans the plan up and
 * throws `ERR_SANDBOX_SPAWN_FAILED`.
 */
export async function startChild(
  command: string,
  plan: SpawnPlan,
  opts: RunChildProcessOptions,
  routes?: readonly StdioRoute[],
): Promise<ChildProcess> {
  try {
    const child = spawnPlanned(plan, opts, routes);
    if (plan.seccomp) {
      const filter = child.stdio[SECCOMP_FD] as Writable;
      filter.on("error", () => {});
      filter.end(plan.seccomp);
    }
    return child;
  } catch (error) {
    await plan.cleanup().catch(() => {});
    throw spawnFailure(command, opts.cwd, plan.env, error);
  }
}
