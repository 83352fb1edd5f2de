import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readlink } from "node:fs/promises";
import { buildLocalProcessSandboxSpawnTarget } from "@paperclipai/adapter-utils/local-process-sandbox";
import { namespaceMountArgs, type RootEntry } from "./namespace-mounts.js";
import { rewriteSandboxPaths } from "./path-rewrite.js";
import { mapSandboxPath, type SandboxDirs, TMP_PATH, WORKSPACE_PATH } from "./sandbox-paths.js";
import type { EmulatorIsolation } from "./types.js";

/** A command as the API receives it, in sandbox paths. */
export interface LaunchRequest {
  readonly cmd: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

/** A started child and what to release once it is gone. */
export interface Launched {
  readonly child: ChildProcess;
  readonly cleanup: () => Promise<void>;
}

export interface Launcher {
  readonly isolation: EmulatorIsolation;
  /**
   * Spawns the command in its own process group (`detached`), stdin/stdout/stderr piped.
   * Undefined when `cwd` is not a directory of the sandbox under bubblewrap.
   */
  spawn(request: LaunchRequest, dirs: SandboxDirs & { readonly dir: string }): Promise<Launched | undefined>;
}

// Processes see a clean environment: the host's variables may hold secrets of the test runner.
function baseEnv(home: string, tmp: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    TMPDIR: tmp,
    LANG: "C.UTF-8",
    PAPERCLIP_EMULATOR_WORKSPACE: home,
  };
}

// bwrap's --chdir takes the host path; this enters the sandbox path so `pwd` reads as on CreateOS.
const ENTER_CWD = 'cd -- "$1" && shift && exec "$@"';

const noCleanup = async (): Promise<void> => {};

/**
 * Debian's `update-alternatives` links (`/usr/bin/awk` → `/etc/alternatives/awk` → `mawk`):
 * without them the standard tools of a real sandbox image dangle inside bubblewrap.
 */
const SYSTEM_LINK_DIRS = ["/etc/alternatives"]
  .filter((path) => existsSync(path))
  .map((path) => ({ path, access: "ro" as const }));

async function hostRootEntries(): Promise<RootEntry[]> {
  const entries = await readdir("/", { withFileTypes: true });
  return Promise.all(
    entries.map(
      async (entry): Promise<RootEntry> =>
        entry.isSymbolicLink()
          ? { name: entry.name, kind: "symlink", target: await readlink(`/${entry.name}`) }
          : { name: entry.name, kind: "mountable" },
    ),
  );
}

/** Isolation `"namespace"`: see `namespaceMountArgs`; the sandbox's paths need no rewriting. */
function namespaceLauncher(bwrapPath: string): Launcher {
  return {
    isolation: "namespace",
    async spawn(request, dirs) {
      // HOME is the sandbox's /tmp, outside the workspace as a VM's home is: what tools keep
      // there (Codex links its own binary into ~/.codex/tmp) is not synced out with the workspace.
      const env: Record<string, string> = {
        ...baseEnv(WORKSPACE_PATH, TMP_PATH),
        HOME: TMP_PATH,
        ...request.env,
      };
      const mounts = namespaceMountArgs(await hostRootEntries(), dirs, request.cwd);
      const child = spawn(bwrapPath, [...mounts, "--", request.cmd, ...request.args], {
        detached: true,
        env,
        stdio: "pipe",
      });
      return { child, cleanup: noCleanup };
    },
  };
}

/**
 * `"none"`: plain children with the sandbox path prefixes rewritten to host directories.
 * `"bwrap"`: this repo's bubblewrap sandbox (`@paperclipai/adapter-utils`), workspace
 * filesystem scope over the sandbox directory, `/paperclip-workspace` and `/tmp` bound to
 * the sandbox's directories, no network.
 * `"namespace"`: plain children as with `"none"`, each in a mount namespace where
 * `/paperclip-workspace` and `/tmp` are the sandbox's directories (exact paths).
 */
export function createLauncher(isolation: EmulatorIsolation, bwrapPath: string): Launcher {
  if (isolation === "namespace") return namespaceLauncher(bwrapPath);
  if (isolation === "none") {
    return {
      isolation,
      async spawn(request, dirs) {
        const rewrite = (text: string) => rewriteSandboxPaths(text, dirs);
        const env: Record<string, string> = baseEnv(dirs.workspaceDir, dirs.tmpDir);
        for (const [key, value] of Object.entries(request.env)) env[key] = rewrite(value);
        const cwd = mapSandboxPath(request.cwd, dirs) ?? request.cwd;
        const child = spawn(rewrite(request.cmd), request.args.map(rewrite), {
          detached: true,
          cwd,
          env,
          stdio: "pipe",
        });
        return { child, cleanup: noCleanup };
      },
    };
  }
  return {
    isolation,
    async spawn(request, dirs) {
      const hostCwd = mapSandboxPath(request.cwd, dirs);
      if (hostCwd === undefined) return undefined;
      const env: Record<string, string> = { ...baseEnv(WORKSPACE_PATH, TMP_PATH), ...request.env };
      // Given the env, the target carries its loader variables (LD_PRELOAD, …) to the program in
      // bwrap's argv and deletes them for bwrap, which runs on the host.
      const target = await buildLocalProcessSandboxSpawnTarget({
        env,
        executable: "/bin/sh",
        args: ["-c", ENTER_CWD, "sh", request.cwd, request.cmd, ...request.args],
        cwd: hostCwd,
        options: {
          workspaceDir: dirs.dir,
          filesystemScope: "workspace",
          networkScope: "deny",
          pathAliases: [
            { path: WORKSPACE_PATH, target: dirs.workspaceDir },
            { path: TMP_PATH, target: dirs.tmpDir },
          ],
          extraPaths: SYSTEM_LINK_DIRS,
          command: bwrapPath,
        },
      });
      for (const [key, value] of Object.entries(target.env ?? {})) {
        if (value === undefined) delete env[key];
        else env[key] = value;
      }
      const child = spawn(target.command, target.args, {
        detached: true,
        cwd: target.cwd,
        env,
        stdio: "pipe",
      });
      return { child, cleanup: target.cleanup ?? noCleanup };
    },
  };
}
