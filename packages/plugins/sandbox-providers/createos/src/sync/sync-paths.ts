import { isAbsolute as isHostAbsolute, normalize as normalizeHost, posix } from "node:path";
import { CreateosError } from "@paperclipai/errors";
import { WORKSPACE_PATH } from "../lease/lease-metadata.js";

function outside(field: string, operationId: string): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_SYNC_PATH",
    "CreateOS sync path is not an absolute path inside the sandbox workspace.",
    {
      details: { field, operationId: operationId.slice(0, 100) },
    },
  );
}

/** A sandbox path confined to `/paperclip-workspace` once `.` and `..` are resolved. */
export function confineSandboxPath(path: unknown, field: string, operationId: string): string {
  if (typeof path !== "string" || path.includes("\0") || !path.startsWith("/"))
    throw outside(field, operationId);
  const normalized = posix.normalize(path).replace(/\/+$/, "") || "/";
  if (normalized !== WORKSPACE_PATH && !normalized.startsWith(`${WORKSPACE_PATH}/`))
    throw outside(field, operationId);
  return normalized;
}

/** A sandbox path strictly below the workspace root (a target that may be replaced). */
export function confineSandboxEntry(path: unknown, field: string, operationId: string): string {
  const confined = confineSandboxPath(path, field, operationId);
  if (confined === WORKSPACE_PATH) throw outside(field, operationId);
  return confined;
}

/** An absolute host path, normalized. */
export function hostPath(path: unknown, field: string, operationId: string): string {
  if (typeof path !== "string" || path.includes("\0") || !isHostAbsolute(path))
    throw outside(field, operationId);
  return normalizeHost(path);
}
