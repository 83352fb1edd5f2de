import { SandboxError } from "@paperclipai/errors";
import type { LocalProcessSandboxPath } from "../sandbox-options.js";
import { normalizeAbsolutePath } from "./normalize-absolute-path.js";

/**
 * Upstream's `parseLocalProcessSandboxExtraPaths`: a non-array gives `[]`; a string
 * entry is read-only; an object entry is `{ path, access? }` with access `ro` (default) or `rw`.
 */
export function parseLocalProcessSandboxExtraPaths(value: unknown): LocalProcessSandboxPath[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry: unknown, index): LocalProcessSandboxPath => {
    if (typeof entry === "string") {
      return { path: normalizeAbsolutePath(entry, `filesystemExtraPaths[${index}]`), access: "ro" };
    }
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) {
      throw new SandboxError(
        "ERR_SANDBOX_EXTRA_PATH_INVALID",
        `filesystemExtraPaths[${index}] must be an absolute path or { path, access } object.`,
        { details: { index } },
      );
    }
    const raw = entry as { path?: unknown; access?: unknown };
    const access = raw.access === "rw" ? "rw" : raw.access === "ro" || raw.access == null ? "ro" : null;
    if (!access || typeof raw.path !== "string") {
      throw new SandboxError(
        "ERR_SANDBOX_EXTRA_PATH_ACCESS",
        `filesystemExtraPaths[${index}] must use access "ro" or "rw" and an absolute path.`,
        { details: { index } },
      );
    }
    return { path: normalizeAbsolutePath(raw.path, `filesystemExtraPaths[${index}].path`), access };
  });
}
