import { EmulatedProcess } from "../emulated-process.js";
import { EmulatorState } from "../emulator-state.js";
import { readCommandBody } from "./command-body.js";
import { ENV_KEY_PATTERN } from "./env-keys.js";
import { loseCreateReply } from "./lost-reply.js";
import { fail, isRecord, queryInteger, type RouteContext, reply } from "./route-context.js";
import { acceptingWork, findSandbox, requireRunning } from "./sandbox-routes.js";

const MAX_WAIT_MS = 300_000;
const MAX_GRACE_MS = 60_000;

/** The process a route addresses; 404 when the sandbox or the process is unknown or was killed by DELETE. */
export function findProcess(ctx: RouteContext): EmulatedProcess | undefined {
  const sandbox = findSandbox(ctx);
  if (!sandbox) return undefined;
  const process = sandbox.processes.get(ctx.match.processId ?? "");
  if (!process || process.removed) {
    fail(ctx, 404, "not_found", "Process not found.");
    return undefined;
  }
  return process;
}

export async function createProcess(ctx: RouteContext): Promise<void> {
  const sandbox = findSandbox(ctx);
  if (!sandbox) return;
  const command = await readCommandBody(ctx);
  if (!command) return;
  const { value, cmd, args } = command;
  if (value.cwd !== undefined && (typeof value.cwd !== "string" || !value.cwd.startsWith("/"))) {
    return fail(ctx, 400, "invalid_request", "cwd must be an absolute path.");
  }
  const env: Record<string, string> = { ...sandbox.spec.env };
  if (value.env !== undefined) {
    if (!isRecord(value.env)) return fail(ctx, 400, "invalid_request", "env must be an object.");
    for (const [key, item] of Object.entries(value.env)) {
      // The service only accepts env keys declared when the sandbox was created.
      if (!ENV_KEY_PATTERN.test(key) || !(key in sandbox.spec.env) || typeof item !== "string") {
        return fail(ctx, 400, "invalid_request", "env keys must be declared at sandbox creation.");
      }
      env[key] = item;
    }
  }
  if ([cmd, ...args, value.cwd ?? "", ...Object.values(env)].some((text) => text.includes("\0"))) {
    return fail(ctx, 400, "invalid_request", "Command values cannot contain NUL.");
  }
  if (!requireRunning(ctx, sandbox) || !acceptingWork(ctx)) return;
  const launched = await ctx.state.launcher
    .spawn({ cmd, args, cwd: value.cwd ?? "/paperclip-workspace", env }, sandbox)
    .catch(() => undefined);
  if (!launched) return fail(ctx, 400, "spawn_failed", "The command could not be started in this cwd.");
  const { child, cleanup } = launched;
  if (child.pid === undefined) {
    child.once("error", () => {});
    await cleanup();
    return fail(ctx, 400, "spawn_failed", "The command could not be started.");
  }
  const id = EmulatorState.newId("proc");
  const process = new EmulatedProcess(id, sandbox.id, child, ctx.state.options, cleanup);
  sandbox.processes.set(id, process);
  // The sandbox may have been deleted while bubblewrap was being prepared.
  if (sandbox.status === "destroyed") {
    await process.killTree(0);
    return fail(ctx, 404, "not_found", "Sandbox not found.");
  }
  if (loseCreateReply(ctx, { ...ctx.match, processId: id })) return;
  reply(ctx, 200, { process_id: id });
}

export function closeStdin(ctx: RouteContext): void {
  const process = findProcess(ctx);
  if (!process) return;
  if (process.closeStdin()) reply(ctx, 200, {});
  else fail(ctx, 409, "conflict", "stdin is already closed.");
}

export async function waitProcess(ctx: RouteContext): Promise<void> {
  const process = findProcess(ctx);
  if (!process) return;
  const timeout = queryInteger(ctx, "timeout_ms");
  if (timeout === null)
    return fail(ctx, 400, "invalid_request", "timeout_ms must be a non-negative integer.");
  const abort = new AbortController();
  const onClose = () => abort.abort();
  ctx.res.once("close", onClose);
  const exited = await process.waitExit(Math.min(timeout ?? 0, MAX_WAIT_MS), abort.signal);
  ctx.res.off("close", onClose);
  if (ctx.res.destroyed) return;
  const exit = process.journal.exit;
  if (!exited || !exit) return fail(ctx, 408, "timeout", "The process is still running.");
  reply(ctx, 200, {
    exit_code: exit.exitCode,
    signal: exit.signal,
    output: { newest_seq: process.journal.newestSeq, evicted_before: process.journal.evictedBefore },
  });
}

export async function killProcess(ctx: RouteContext): Promise<void> {
  const process = findProcess(ctx);
  if (!process) return;
  const grace = queryInteger(ctx, "grace_ms");
  if (grace === null) return fail(ctx, 400, "invalid_request", "grace_ms must be a non-negative integer.");
  const gone = await process.killTree(Math.min(grace ?? 1000, MAX_GRACE_MS));
  if (!gone) return fail(ctx, 500, "kill_failed", "The process tree did not exit.");
  process.removed = true;
  reply(ctx, 200, { tree_exited: true });
}
