import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { lstat, mkdir, rename, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { pipeline } from "node:stream/promises";
import { isConfined, mapSandboxPath } from "../sandbox-paths.js";
import { fail, type RouteContext } from "./route-context.js";
import { findSandbox, requireRunning } from "./sandbox-routes.js";

/** Resolves `?path=` to a confined host path; replies 400/403 and returns undefined otherwise. */
async function hostPathOf(ctx: RouteContext): Promise<string | undefined> {
  const sandbox = findSandbox(ctx);
  if (!sandbox || !requireRunning(ctx, sandbox)) return undefined;
  const path = ctx.query.get("path");
  if (path === null || !path.startsWith("/") || path.includes("\0")) {
    fail(ctx, 400, "invalid_request", "path must be an absolute path.");
    return undefined;
  }
  const hostPath = mapSandboxPath(path, sandbox);
  if (hostPath === undefined || !(await isConfined(hostPath, sandbox))) {
    fail(ctx, 403, "forbidden", "path is outside the sandbox's writable area.");
    return undefined;
  }
  return hostPath;
}

/** `PUT /files?path=`: the raw body becomes the file, written to a temporary name and renamed into place. */
export async function putFile(ctx: RouteContext): Promise<void> {
  const hostPath = await hostPathOf(ctx);
  if (hostPath === undefined) return;
  const madeParents = await mkdir(dirname(hostPath), { recursive: true }).then(
    () => true,
    () => false,
  );
  if (!madeParents) return fail(ctx, 409, "conflict", "A parent of path is not a directory.");
  // The parents were created inside the confined ancestor; re-check in case a link raced in.
  if (!(await isConfined(hostPath, ctx.state.sandboxes.get(ctx.match.sandboxId ?? "")!))) {
    return fail(ctx, 403, "forbidden", "path is outside the sandbox's writable area.");
  }
  const existing = await lstat(hostPath).catch(() => undefined);
  if (existing?.isDirectory()) return fail(ctx, 409, "conflict", "path is a directory.");
  const temporary = `${hostPath}.upload-${randomBytes(6).toString("hex")}`;
  try {
    await pipeline(ctx.req, createWriteStream(temporary, { flags: "wx", mode: 0o644 }));
    await rename(temporary, hostPath);
  } catch {
    await rm(temporary, { force: true });
    if (!ctx.res.headersSent && !ctx.res.destroyed)
      fail(ctx, 400, "upload_failed", "The upload did not complete.");
    return;
  }
  const body = JSON.stringify({ status: "success", data: {} });
  ctx.res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  ctx.res.end(body);
}

/** `GET /files?path=`: the file's raw bytes. */
export async function getFile(ctx: RouteContext): Promise<void> {
  const hostPath = await hostPathOf(ctx);
  if (hostPath === undefined) return;
  const info = await stat(hostPath).catch(() => undefined);
  if (!info?.isFile()) return fail(ctx, 404, "not_found", "File not found.");
  let size = info.size;
  const short = ctx.state.faults.arm("short-file", ctx.match);
  if (short?.fire()) {
    ctx.noteFault("short-file");
    size = Math.min(size, short.fault.bytes ?? 0);
  }
  ctx.res.writeHead(200, { "content-type": "application/octet-stream", "content-length": size });
  if (size === 0) return void ctx.res.end();
  await pipeline(createReadStream(hostPath, { end: size - 1 }), ctx.res).catch(() => ctx.res.destroy());
}
