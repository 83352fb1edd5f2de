import path from "node:path";
import { SandboxError } from "@paperclipai/errors";

/** Trims and resolves an absolute path; `label` names the option in upstream's message. */
export function normalizeAbsolutePath(candidate: string, label: string): string {
  const trimmed = typeof candidate === "string" ? candidate.trim() : "";
  if (!trimmed || !path.isAbsolute(trimmed)) {
    throw new SandboxError("ERR_SANDBOX_PATH_NOT_ABSOLUTE", `${label} must be an absolute path.`, {
      details: { label },
    });
  }
  return path.resolve(trimmed);
}

/** `true` when `candidate` is `root` or lies below it (both normalized). */
export function isPathInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return !relative.startsWith("..") && !path.isAbsolute(relative);
}
