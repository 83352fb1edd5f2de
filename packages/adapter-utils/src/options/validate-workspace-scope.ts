import { SandboxError } from "@paperclipai/errors";
import type { LocalProcessSandboxOptions } from "../sandbox-options.js";
import { isPathInside, normalizeAbsolutePath } from "./normalize-absolute-path.js";

/**
 * Upstream's workspace-scope checks: the cwd is inside the workspace, and every
 * writable extra path is either synchronized (inside the workspace) or restored
 * by an outbound mapping, so nothing the program writes is silently lost.
 */
export function validateWorkspaceScope(
  workspaceDir: string,
  cwd: string,
  options: Pick<LocalProcessSandboxOptions, "extraPaths" | "outboundRestorePaths">,
): void {
  if (!isPathInside(workspaceDir, cwd)) {
    throw new SandboxError(
      "ERR_SANDBOX_CWD_OUTSIDE_WORKSPACE",
      `Sandbox cwd "${cwd}" must be inside workspaceDir "${workspaceDir}".`,
      { details: { cwd, workspaceDir } },
    );
  }
  const restorePaths = (options.outboundRestorePaths ?? []).map((candidate, index) =>
    normalizeAbsolutePath(candidate, `Sandbox outboundRestorePaths[${index}]`),
  );
  for (const [index, extraPath] of (options.extraPaths ?? []).entries()) {
    if (extraPath.access !== "rw") continue;
    const normalized = normalizeAbsolutePath(extraPath.path, `Sandbox extraPaths[${index}].path`);
    const synchronized = isPathInside(workspaceDir, normalized);
    const restored = restorePaths.some((restorePath) => isPathInside(restorePath, normalized));
    if (!synchronized && !restored) {
      throw new SandboxError(
        "ERR_SANDBOX_WRITABLE_PATH_UNMAPPED",
        `Writable sandbox path "${normalized}" is outside synchronized workspace "${workspaceDir}" and has no outbound restore mapping.`,
        { details: { path: normalized, workspaceDir } },
      );
    }
  }
}

/**
 * Refuses an alias whose target leaves the workspace once resolved (pure). bwrap binds the
 * real path of the target, writable; a target inside the workspace that is a link (one an
 * earlier run planted there, say) would otherwise bind whatever it names, the caller's
 * `~/.ssh` as well, where `validatePathAliases` saw only the spelling.
 */
export function assertAliasesStayInWorkspace(
  workspace: { readonly path: string; readonly real: string },
  aliases: readonly { readonly path: string; readonly target: string; readonly realTarget: string }[],
): void {
  for (const alias of aliases) {
    if (isPathInside(workspace.real, alias.realTarget)) continue;
    // The spelling was checked to lie inside (`validatePathAliases`): say that a link leads out.
    const message =
      alias.realTarget === alias.target
        ? `Sandbox path alias "${alias.path}" must target the synchronized workspace "${workspace.path}".`
        : `Sandbox path alias "${alias.path}" targets "${alias.target}", which resolves through a symlink to "${alias.realTarget}", outside the synchronized workspace "${workspace.path}".`;
    throw new SandboxError("ERR_SANDBOX_ALIAS_OUTSIDE_WORKSPACE", message, {
      details: {
        path: alias.path,
        target: alias.target,
        realTarget: alias.realTarget,
        workspaceDir: workspace.path,
      },
    });
  }
}

export interface ResolvedPathAlias {
  readonly path: string;
  readonly target: string;
}

/** Path aliases must point into the workspace and exist; `exists` is injected so this stays pure. */
export function validatePathAliases(
  workspaceDir: string,
  aliases: LocalProcessSandboxOptions["pathAliases"],
  exists: (candidate: string) => boolean,
): ResolvedPathAlias[] {
  return (aliases ?? []).map((alias, index) => {
    const aliasPath = normalizeAbsolutePath(alias.path, `Sandbox pathAliases[${index}].path`);
    const target = normalizeAbsolutePath(alias.target, `Sandbox pathAliases[${index}].target`);
    if (!isPathInside(workspaceDir, target)) {
      throw new SandboxError(
        "ERR_SANDBOX_ALIAS_OUTSIDE_WORKSPACE",
        `Sandbox path alias "${aliasPath}" must target the synchronized workspace "${workspaceDir}".`,
        { details: { path: aliasPath, target, workspaceDir } },
      );
    }
    if (!exists(target)) {
      throw new SandboxError(
        "ERR_SANDBOX_ALIAS_TARGET_MISSING",
        `Sandbox path alias target "${target}" does not exist.`,
        {
          details: { path: aliasPath, target },
        },
      );
    }
    return { path: aliasPath, target };
  });
}
