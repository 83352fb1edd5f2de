import { SandboxError } from "@paperclipai/errors";
import type {
  LocalProcessFilesystemScope,
  LocalProcessNetworkScope,
  LocalProcessSandboxAccess,
} from "../sandbox-options.js";

export function parseLocalProcessNetworkScope(value: unknown): LocalProcessNetworkScope | null {
  if (value == null || value === "") return null;
  if (value === "deny" || value === "allowlist") return value;
  throw new SandboxError("ERR_SANDBOX_NETWORK_SCOPE_INVALID", 'networkScope must be "deny" or "allowlist".', {
    details: { value: String(value) },
  });
}

export function parseLocalProcessFilesystemScope(value: unknown): LocalProcessFilesystemScope | null {
  if (value == null || value === "") return null;
  if (value === "workspace") return value;
  throw new SandboxError("ERR_SANDBOX_FILESYSTEM_SCOPE_INVALID", 'filesystemScope must be "workspace".', {
    details: { value: String(value) },
  });
}

export function parseLocalProcessFilesystemWorkspaceAccess(value: unknown): LocalProcessSandboxAccess {
  if (value == null || value === "") return "rw";
  if (value === "ro" || value === "rw") return value;
  throw new SandboxError(
    "ERR_SANDBOX_WORKSPACE_ACCESS_INVALID",
    'filesystemWorkspaceAccess must be "ro" or "rw".',
    { details: { value: String(value) } },
  );
}
