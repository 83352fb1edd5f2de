import { EmulatedSandbox } from "../emulated-sandbox.js";
import { EmulatorState } from "../emulator-state.js";
import { runBufferedCommand } from "../exec-command.js";
import type { SandboxStatus } from "../types.js";
import { readCommandBody } from "./command-body.js";
import { ENV_KEY_PATTERN } from "./env-keys.js";
import { loseCreateReply } from "./lost-reply.js";
import { fail, isRecord, type RouteContext, readJson, reply } from "./route-context.js";

// Sandbox deletion is a cleanup call: give processes a short grace period.
const DELETE_GRACE_MS = 200;

/** The sandbox a route addresses; replies 404 for an unknown id. Destroyed sandboxes count as gone unless `allowDestroyed`. */
export function findSandbox(ctx: RouteContext, allowDestroyed = false): EmulatedSandbox | undefined {
  const id = ctx.match.sandboxId ?? "";
  const sandbox = ctx.state.sandboxes.get(id);
  if (!sandbox || (!allowDestroyed && sandbox.status === "destroyed")) {
    fail(ctx, 404, "not_found", "Sandbox not found.");
    return undefined;
  }
  return sandbox;
}

/** Replies 409 unless the sandbox is running. */
export function requireRunning(ctx: RouteContext, sandbox: EmulatedSandbox): boolean {
  if (sandbox.status === "running") return true;
  fail(ctx, 409, "invalid_state", `Sandbox is ${sandbox.status}.`);
  return false;
}

/** Replies 503 once `close()` has begun: nothing may be started that close() would miss. */
export function acceptingWork(ctx: RouteContext): boolean {
  if (!ctx.state.closing) return true;
  fail(ctx, 503, "unavailable", "The emulator is shutting down.");
  return false;
}

function optionalString(value: unknown): value is string | undefined | null {
  return value === undefined || value === null || typeof value === "string";
}

export async function createSandbox(ctx: RouteContext): Promise<void> {
  const body = await readJson(ctx);
  if (!body.ok) return;
  const value = body.value;
  if (!isRecord(value) || typeof value.shape !== "string" || value.shape.length === 0) {
    return fail(ctx, 400, "invalid_request", "shape is required.");
  }
  const shapes = ctx.state.options.shapes;
  if (shapes !== null && !shapes.has(value.shape)) {
    return fail(ctx, 400, "invalid_request", "shape is not in the shape catalog.");
  }
  if (!optionalString(value.rootfs) || !optionalString(value.region)) {
    return fail(ctx, 400, "invalid_request", "rootfs and region must be strings.");
  }
  if (value.ingress_enabled !== undefined && typeof value.ingress_enabled !== "boolean") {
    return fail(ctx, 400, "invalid_request", "ingress_enabled must be a boolean.");
  }
  const env: Record<string, string> = {};
  if (value.env !== undefined) {
    if (!isRecord(value.env)) return fail(ctx, 400, "invalid_request", "env must be an object.");
    for (const [key, item] of Object.entries(value.env)) {
      if (!ENV_KEY_PATTERN.test(key) || typeof item !== "string" || item.includes("\0")) {
        return fail(ctx, 400, "invalid_request", "env keys must be identifiers and values strings.");
      }
      env[key] = item;
    }
  }
  const id = EmulatorState.newId("sbx");
  const sandbox = await EmulatedSandbox.create(
    id,
    {
      shape: value.shape,
      rootfs: value.rootfs ?? null,
      region: value.region ?? null,
      ingressEnabled: value.ingress_enabled ?? false,
      env,
    },
    ctx.state.root,
    ctx.state.options.transitionMs,
  );
  if (!acceptingWork(ctx)) {
    await sandbox.destroy(0);
    return;
  }
  ctx.state.sandboxes.set(id, sandbox);
  if (loseCreateReply(ctx, { ...ctx.match, sandboxId: id })) return;
  reply(ctx, 200, { id, status: sandbox.status });
}

export function getSandbox(ctx: RouteContext): void {
  const sandbox = findSandbox(ctx, true);
  if (!sandbox) return;
  reply(ctx, 200, {
    id: sandbox.id,
    status: sandbox.shownStatus,
    shape: sandbox.spec.shape,
    rootfs: sandbox.spec.rootfs,
    region: sandbox.spec.region,
    created_at: sandbox.createdAt,
  });
}

export function pauseOrResume(ctx: RouteContext, action: "pause" | "resume"): void {
  const sandbox = findSandbox(ctx);
  if (!sandbox) return;
  const before = sandbox.status;
  const started = action === "pause" ? sandbox.pause() : sandbox.resume();
  if (started) staleState(ctx, sandbox, before);
  if (started) reply(ctx, 200, { id: sandbox.id, status: sandbox.status });
  else fail(ctx, 409, "invalid_state", `Sandbox is ${sandbox.status}.`);
}

/** A `stale-state` fault armed for this pause or resume keeps `before` shown to `GET` a while. */
function staleState(ctx: RouteContext, sandbox: EmulatedSandbox, before: SandboxStatus): void {
  const armed = ctx.state.faults.arm("stale-state", ctx.match, (fault) => fault.route === ctx.match.route);
  if (!armed?.fire()) return;
  ctx.noteFault("stale-state");
  sandbox.showStale(before, armed.fault.delayMs);
}

export async function deleteSandbox(ctx: RouteContext): Promise<void> {
  const sandbox = findSandbox(ctx);
  if (!sandbox) return;
  await sandbox.destroy(DELETE_GRACE_MS);
  reply(ctx, 200, { id: sandbox.id, status: sandbox.status });
}

export async function execInSandbox(ctx: RouteContext): Promise<void> {
  const sandbox = findSandbox(ctx);
  if (!sandbox) return;
  const command = await readCommandBody(ctx);
  if (!command) return;
  const { value, cmd, args } = command;
  if (value.cwd !== undefined && typeof value.cwd !== "string") {
    return fail(ctx, 400, "invalid_request", "cwd must be a string.");
  }
  if ([cmd, ...args, value.cwd ?? ""].some((text) => text.includes("\0"))) {
    return fail(ctx, 400, "invalid_request", "Command values cannot contain NUL.");
  }
  if (!requireRunning(ctx, sandbox) || !acceptingWork(ctx)) return;
  const result = await runBufferedCommand(ctx.state, sandbox, {
    cmd,
    args,
    cwd: value.cwd ?? "/paperclip-workspace",
    env: sandbox.spec.env,
  });
  reply(ctx, 200, { result });
}
