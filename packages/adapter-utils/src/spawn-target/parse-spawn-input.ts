import { existsSync } from "node:fs";
import { SandboxError } from "@paperclipai/errors";
import { normalizeAbsolutePath } from "../options/normalize-absolute-path.js";
import {
  parseLocalProcessFilesystemScope,
  parseLocalProcessFilesystemWorkspaceAccess,
  parseLocalProcessNetworkScope,
} from "../options/parse-scopes.js";
import { parseTmpfsSize } from "../options/parse-tmpfs-size.js";
import {
  type ResolvedPathAlias,
  validatePathAliases,
  validateWorkspaceScope,
} from "../options/validate-workspace-scope.js";
import { buildNetworkPolicy } from "../proxy/index.js";
import type {
  LocalProcessFilesystemScope,
  LocalProcessNetworkScope,
  LocalProcessSandboxAccess,
  LocalProcessSandboxSpawnInput,
} from "../sandbox-options.js";

/** A build request, validated: every refusal happens here, before anything is created. */
export interface ParsedSpawnInput {
  readonly filesystemScope: LocalProcessFilesystemScope | null;
  readonly networkScope: LocalProcessNetworkScope | null;
  readonly workspaceDir: string;
  readonly cwd: string;
  readonly workspaceAccess: LocalProcessSandboxAccess;
  /** Validated aliases of the workspace scope (none in the network-only scope). */
  readonly aliases: ResolvedPathAlias[];
  /** `tmpfsSizeBytes`, validated: the `--size` of each writable tmpfs; `null`: no cap. */
  readonly tmpfsSize: number | null;
}

/**
 * Validates a build request with upstream's messages and the package's codes: Linux only,
 * at least one scope, absolute paths, the workspace scope's rules, and (allowlist) a
 * policy with at least one rule.
 */
export function parseSpawnInput(input: LocalProcessSandboxSpawnInput): ParsedSpawnInput {
  if (process.platform !== "linux") {
    throw new SandboxError(
      "ERR_SANDBOX_UNSUPPORTED_PLATFORM",
      "Local process filesystem and network scopes are currently supported only on Linux.",
      { details: { platform: process.platform } },
    );
  }
  const { options } = input;
  const filesystemScope = parseLocalProcessFilesystemScope(options.filesystemScope);
  const networkScope = parseLocalProcessNetworkScope(options.networkScope);
  if (!filesystemScope && !networkScope) {
    throw new SandboxError(
      "ERR_SANDBOX_SCOPE_REQUIRED",
      "Local process sandbox requires a filesystem or network scope.",
    );
  }
  const workspaceDir = normalizeAbsolutePath(options.workspaceDir, "Sandbox workspaceDir");
  const cwd = normalizeAbsolutePath(input.cwd, "Sandbox cwd");
  const workspaceAccess = parseLocalProcessFilesystemWorkspaceAccess(options.filesystemWorkspaceAccess);
  const tmpfsSize = parseTmpfsSize(options.tmpfsSizeBytes);
  if (filesystemScope) validateWorkspaceScope(workspaceDir, cwd, options);
  const aliases = filesystemScope ? validatePathAliases(workspaceDir, options.pathAliases, existsSync) : [];
  // Fails with upstream's message before anything is created when no rule remains.
  if (networkScope === "allowlist") {
    buildNetworkPolicy(options.networkAllowlist ?? [], options.networkTrustedUrls ?? []);
  }
  return { filesystemScope, networkScope, workspaceDir, cwd, workspaceAccess, aliases, tmpfsSize };
}
