import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EmulatorState, MutableRequestRecord } from "../emulator-state.js";
import { matchRoute } from "../routes.js";
import { connectStream } from "./connect-stream.js";
import { CONTROL_PREFIX, handleControl } from "./control-routes.js";
import { getFile, putFile } from "./file-routes.js";
import { closeStdin, createProcess, killProcess, waitProcess } from "./process-routes.js";
import { fail, type RouteContext } from "./route-context.js";
import { createSandbox, deleteSandbox, execInSandbox, getSandbox, pauseOrResume } from "./sandbox-routes.js";

function keyMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function dispatch(ctx: RouteContext): Promise<void> {
  switch (ctx.match.route) {
    case "sandbox.create":
      return createSandbox(ctx);
    case "sandbox.get":
      return getSandbox(ctx);
    case "sandbox.pause":
      return pauseOrResume(ctx, "pause");
    case "sandbox.resume":
      return pauseOrResume(ctx, "resume");
    case "sandbox.delete":
      return deleteSandbox(ctx);
    case "sandbox.exec":
      return execInSandbox(ctx);
    case "files.put":
      return putFile(ctx);
    case "files.get":
      return getFile(ctx);
    case "process.create":
      return createProcess(ctx);
    case "process.stdinClose":
      return closeStdin(ctx);
    case "process.connect":
      return connectStream(ctx);
    case "process.wait":
      return waitProcess(ctx);
    case "process.kill":
      return killProcess(ctx);
    case "unknown":
      return fail(ctx, 404, "not_found", "No such route.");
  }
}

/**
 * The order of checks follows a hosted API behind a gateway: the per-IP rate limit first,
 * then injected faults (they play the gateway or a failing backend), then the API key, then
 * the route itself.
 */
export function createRequestHandler(
  state: EmulatorState,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? "/", "http://emulator.invalid");
    const method = req.method ?? "GET";
    if (url.pathname.startsWith(CONTROL_PREFIX)) {
      if (!keyMatches(req.headers["x-api-key"], state.apiKey)) {
        req.resume();
        res.writeHead(401).end();
        return;
      }
      handleControl(state, method, url.pathname, req, res).catch(() => res.destroy());
      return;
    }
    const match = matchRoute(method, url.pathname);
    const record: MutableRequestRecord = state.record({
      method,
      path: url.pathname,
      query: url.search.slice(1),
      route: match.route,
      status: 0,
    });
    const ctx: RouteContext = {
      req,
      res,
      state,
      match,
      query: url.searchParams,
      noteFault: (kind) => {
        record.fault = kind;
      },
    };
    const originalWriteHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((...args: unknown[]) => {
      record.status = args[0] as number;
      return originalWriteHead(...args);
    }) as typeof res.writeHead;

    if (state.closing) {
      req.resume();
      return fail(ctx, 503, "unavailable", "The emulator is shutting down.");
    }
    const decision = state.limiter?.take(req.socket.remoteAddress ?? "unknown");
    if (decision && !decision.allowed) {
      req.resume();
      return fail(ctx, 429, "rate_limited", "Too many requests.", {
        "retry-after": String(decision.retryAfterSeconds),
      });
    }
    const injected = state.faults.arm(
      "http-status",
      match,
      (fault) => fault.route === "*" || fault.route === match.route,
    );
    if (injected?.fire()) {
      record.fault = "http-status";
      const headers: Record<string, string> =
        injected.fault.retryAfterSeconds === undefined
          ? {}
          : { "retry-after": String(injected.fault.retryAfterSeconds) };
      req.resume();
      return fail(ctx, injected.fault.status, "injected", "Injected fault.", headers);
    }
    if (!keyMatches(req.headers["x-api-key"], state.apiKey)) {
      req.resume();
      return fail(ctx, 401, "unauthorized", "A valid X-Api-Key is required.");
    }
    const task = dispatch(ctx).catch(() => {
      if (!res.headersSent) fail(ctx, 500, "internal", "Internal emulator error.");
      else res.destroy();
    });
    state.inflight.add(task);
    void task.finally(() => state.inflight.delete(task));
  };
}
