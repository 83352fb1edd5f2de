import type { IncomingMessage, ServerResponse } from "node:http";
import type { EmulatorState, MutableRequestRecord } from "../emulator-state.js";
import { matchRoute } from "../routes.js";
import { admissionRefusal, keyMatches } from "./admission.js";
import { connectStream } from "./connect-stream.js";
import { CONTROL_PREFIX, handleControl } from "./control-routes.js";
import { getFile, putFile } from "./file-routes.js";
import { lateApply } from "./late-apply.js";
import { closeStdin, createProcess, killProcess, waitProcess } from "./process-routes.js";
import { fail, type RouteContext } from "./route-context.js";
import { createSandbox, deleteSandbox, execInSandbox, getSandbox, pauseOrResume } from "./sandbox-routes.js";

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
 * Control routes answer to the API key alone; every other request is logged, then passes
 * the gateway's admission checks (see `admissionRefusal`) before its route runs.
 */
export function createRequestHandler(
  state: EmulatorState,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? "/", "http://emulator.invalid");
    const method = req.method ?? "GET";
    if (url.pathname.startsWith(CONTROL_PREFIX)) {
      handleControlRequest(state, method, url.pathname, req, res);
      return;
    }
    const ctx = recordedContext(state, method, url, req, res);
    const refusal = admissionRefusal(
      state,
      { address: req.socket.remoteAddress, apiKey: req.headers["x-api-key"] },
      ctx.match,
    );
    if (refusal !== null) {
      if (refusal.fault !== undefined) ctx.noteFault(refusal.fault);
      req.resume();
      return fail(ctx, refusal.status, refusal.code, refusal.message, refusal.headers);
    }
    const task = lateApply(ctx)
      .then(() => dispatch(ctx))
      .catch(() => {
        if (!res.headersSent) fail(ctx, 500, "internal", "Internal emulator error.");
        else res.destroy();
      });
    state.inflight.add(task);
    void task.finally(() => state.inflight.delete(task));
  };
}

function handleControlRequest(
  state: EmulatorState,
  method: string,
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  if (!keyMatches(req.headers["x-api-key"], state.apiKey)) {
    req.resume();
    res.writeHead(401).end();
    return;
  }
  handleControl(state, method, pathname, req, res).catch(() => res.destroy());
}

/** The route's context, its request logged: the status it answers and any fault it plays are noted there. */
function recordedContext(
  state: EmulatorState,
  method: string,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): RouteContext {
  const match = matchRoute(method, url.pathname);
  const record: MutableRequestRecord = state.record({
    method,
    path: url.pathname,
    query: url.search.slice(1),
    route: match.route,
    status: 0,
    connection: state.connectionNumber(req.socket),
  });
  const originalWriteHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    record.status = args[0] as number;
    return originalWriteHead(...args);
  }) as typeof res.writeHead;
  return {
    req,
    res,
    state,
    match,
    query: url.searchParams,
    noteFault: (kind) => {
      record.fault = kind;
    },
  };
}
