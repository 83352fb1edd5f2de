import { fail, isRecord, isStringArray, type RouteContext, readJson } from "./route-context.js";

/** The part both the exec and the process endpoints require of a command request. */
export interface CommandBody {
  /** The whole body, for the fields only one endpoint reads (cwd, env). */
  readonly value: Record<string, unknown>;
  readonly cmd: string;
  readonly args: string[];
}

/** Reads a command request: a non-empty `cmd` and string `args`; otherwise the 4xx reply has been sent. */
export async function readCommandBody(ctx: RouteContext): Promise<CommandBody | undefined> {
  const body = await readJson(ctx);
  if (!body.ok) return undefined;
  const value = body.value;
  if (!isRecord(value) || typeof value.cmd !== "string" || value.cmd.length === 0) {
    fail(ctx, 400, "invalid_request", "cmd is required.");
    return undefined;
  }
  const args = value.args ?? [];
  if (!isStringArray(args)) {
    fail(ctx, 400, "invalid_request", "args must be an array of strings.");
    return undefined;
  }
  return { value, cmd: value.cmd, args };
}
