import type { IncomingMessage, ServerResponse } from "node:http";
import type { EmulatorState } from "../emulator-state.js";
import type { Fault } from "../fault-types.js";
import type { MatchedRoute } from "../routes.js";

/** Everything a route handler needs for one request. */
export interface RouteContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly state: EmulatorState;
  readonly match: MatchedRoute;
  readonly query: URLSearchParams;
  /** Marks the request record with the fault that decided the answer. */
  noteFault(kind: Fault["kind"]): void;
}

/** Sends the success envelope `{ status: "success", data }`. */
export function reply(ctx: RouteContext, status: number, data: unknown): void {
  const body = JSON.stringify({ status: "success", data });
  ctx.res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  ctx.res.end(body);
}

/** Sends an error envelope; clients must not rely on its body (the plugin discards it). */
export function fail(
  ctx: RouteContext,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ status: "error", error: { code, message } });
  ctx.res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  ctx.res.end(body);
}

export type BodyResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

/** Reads a JSON body of at most `limit` bytes; on failure the 4xx reply has already been sent. */
export async function readJson(ctx: RouteContext, limit = 1024 * 1024): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      fail(ctx, 413, "payload_too_large", "The request body is too large.");
      return { ok: false };
    }
    chunks.push(chunk);
  }
  if (size === 0) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown };
  } catch {
    fail(ctx, 400, "invalid_json", "The request body is not valid JSON.");
    return { ok: false };
  }
}

/** Reads a non-negative integer query parameter; undefined when absent, null when malformed. */
export function queryInteger(ctx: RouteContext, name: string): number | undefined | null {
  const raw = ctx.query.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,15}$/.test(raw)) return null;
  return Number(raw);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}
