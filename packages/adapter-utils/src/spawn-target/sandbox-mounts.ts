import path from "node:path";
import type { BridgeChoice } from "../bridge/bridge-choice.js";
import { bridgeReadPaths } from "../bridge/bridge-launch.js";
import { DEV_SHM } from "../bwrap/device-directory.js";
import { executableReadPaths, type ProgramReadPaths } from "../bwrap/executable-read-paths.js";
import { assertWorkspaceShown } from "../bwrap/hidden-workspace.js";
import { isSameOrBelow, type MountRequest, sourceOf } from "../bwrap/mount-request.js";
import { assertNoPathInSocketRoot, type NamedPath } from "../bwrap/path-in-socket-root.js";
import {
  type RealPath,
  realPathMemo,
  resolveBindSources,
  rootSpellings,
} from "../bwrap/resolve-bind-sources.js";
import { NETWORK_SCOPE_MASKED_PATHS } from "../bwrap/system-paths.js";
import { normalizeAbsolutePath } from "../options/normalize-absolute-path.js";
import type { ResolvedPathAlias } from "../options/validate-workspace-scope.js";
import type { LocalProcessSandboxOptions } from "../sandbox-options.js";
import { privateSocketRoots } from "../temp-dir/private-socket-roots.js";
import type { ParsedSpawnInput } from "./parse-spawn-input.js";

/**
 * The paths a run asks to see, in upstream's order (pure): what the executable and the
 * bridge need read-only (marked with the program's directory: they yield to a requested
 * path that shows them or the program), managed and extra paths with their access, the workspace, and
 * (network-only scope) the cwd, writable.
 */
export function requestedMounts(
  options: Pick<LocalProcessSandboxOptions, "managedPaths" | "extraPaths">,
  parsed: Pick<ParsedSpawnInput, "filesystemScope" | "workspaceDir" | "workspaceAccess" | "cwd">,
  programs: readonly ProgramReadPaths[],
): MountRequest[] {
  const requests: MountRequest[] = programs.flatMap(({ programDir, paths }) =>
    paths.map((candidate) => ({ path: candidate, access: "ro" as const, programDir })),
  );
  for (const entry of [...(options.managedPaths ?? []), ...(options.extraPaths ?? [])]) {
    requests.push({ path: normalizeAbsolutePath(entry.path, "Sandbox path"), access: entry.access });
  }
  requests.push({
    path: parsed.workspaceDir,
    access: parsed.filesystemScope ? parsed.workspaceAccess : "rw",
  });
  if (!parsed.filesystemScope) requests.push({ path: parsed.cwd, access: "rw" });
  return requests;
}

/** The host paths the network-only scope hides behind private directories (pure): `$XDG_RUNTIME_DIR` too. */
export function networkScopeMaskedPaths(runtimeDir: string | undefined): string[] {
  return runtimeDir && path.isAbsolute(runtimeDir)
    ? [...NETWORK_SCOPE_MASKED_PATHS, path.resolve(runtimeDir)]
    : [...NETWORK_SCOPE_MASKED_PATHS];
}

/**
 * The directories the network-only scope really replaces (real paths: `/var/run -> /run`
 * masks `/run`), one below another left out: its own mask hides it with the rest.
 */
function maskedTargets(masks: readonly string[], realPath: RealPath): string[] {
  const targets = [...new Set(masks.map(realPath))];
  return targets.filter(
    (target) => !targets.some((other) => other !== target && isSameOrBelow(other, target)),
  );
}

/** The cwd, extra and managed paths as named, with their real paths (what `assertNoPathInSocketRoot` judges). */
function namedPaths(
  options: Pick<LocalProcessSandboxOptions, "managedPaths" | "extraPaths">,
  cwd: string,
  realPath: RealPath,
): NamedPath[] {
  const named = (option: NamedPath["option"], candidate: string): NamedPath => ({
    option,
    path: candidate,
    real: realPath(candidate),
  });
  return [
    named("cwd", cwd),
    ...(options.extraPaths ?? []).map((entry) =>
      named("extraPaths", normalizeAbsolutePath(entry.path, "Sandbox path")),
    ),
    ...(options.managedPaths ?? []).map((entry) =>
      named("managedPaths", normalizeAbsolutePath(entry.path, "Sandbox path")),
    ),
  ];
}

export interface SandboxMounts {
  /** What bwrap binds, judged and bound at their real paths. */
  readonly requests: MountRequest[];
  readonly aliases: ResolvedPathAlias[];
  /** Host paths replaced by private directories (network-only scope). */
  readonly masks: string[];
  /** Every private socket root of this user, in each spelling (`rootSpellings`): every sandbox hides them all. */
  readonly socketRoots: string[];
}

/**
 * What the sandbox shows: the requested paths, resolved the way bwrap binds them (real
 * paths; links that would show a socket root are refused), and what it masks.
 */
export function sandboxMounts(
  input: { executable: string; options: LocalProcessSandboxOptions },
  parsed: ParsedSpawnInput,
  bridge: BridgeChoice | null,
): SandboxMounts {
  // Every path this (synchronous) judgement meets is resolved once.
  const realPath = realPathMemo();
  const programs: ProgramReadPaths[] = [];
  if (path.isAbsolute(input.executable)) programs.push(executableReadPaths(input.executable, realPath));
  const bridgeProgram = bridge && bridgeReadPaths(bridge, realPath);
  if (bridgeProgram) programs.push(bridgeProgram);
  // Each root in every spelling (`/dev/shm -> /run/shm`): binds are real paths, and a bound-back
  // `/run` shows the root under its real one; the masks, the layout and the refusals need both.
  const socketRoots = rootSpellings(privateSocketRoots(process.getuid?.() ?? 0));
  const masks = parsed.filesystemScope ? [] : networkScopeMaskedPaths(process.env.XDG_RUNTIME_DIR);
  // Before anything is created: a workspace the sandbox would replace with its own directory.
  assertWorkspaceShown(
    { path: parsed.workspaceDir, real: realPath(parsed.workspaceDir) },
    { masked: maskedTargets(masks, realPath), socketRoots },
  );
  const { requests, aliases } = resolveBindSources({
    requests: requestedMounts(input.options, parsed, programs),
    aliases: parsed.aliases,
    bindAtRealPath: !parsed.filesystemScope,
    socketRoots,
    // Every scope binds these back when named (`hidden-workspace.ts`), /var/run as /run.
    namedPlaces: networkScopeMaskedPaths(process.env.XDG_RUNTIME_DIR),
    workspaceDir: parsed.workspaceDir,
    // Every private directory the network-only scope binds requested paths back into: the
    // masks and the sandbox's own /dev/shm (`buildNetworkOnlyScopeArgs`); /proc and the
    // rest of /dev take no bind-back. Each is judged in its real spelling too.
    hiddenPaths: parsed.filesystemScope ? null : [...masks, DEV_SHM, ...socketRoots],
    realPath,
  });
  // After the link checks: a link into a root is refused as a link (`ERR_SANDBOX_PATH_EXPOSES_SOCKET_ROOT`).
  assertNoPathInSocketRoot(namedPaths(input.options, parsed.cwd, realPath), socketRoots);
  return { requests, aliases, masks, socketRoots };
}

/** The bind sources judged by their real paths: every request's and alias target's (bind-identities.ts). */
export function judgedSources(mounts: SandboxMounts): Set<string> {
  return new Set([...mounts.requests.map(sourceOf), ...mounts.aliases.map((alias) => alias.target)]);
}
