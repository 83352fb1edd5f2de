import { type ChildProcess, spawn } from "node:child_process";
import { lstatSync, readdirSync, readlinkSync } from "node:fs";
import { buildBwrapArgv, type RootEntry } from "./bwrap-argv.js";
import { rewriteSandboxPaths } from "./path-rewrite.js";
import { mapSandboxPath, type SandboxDirs, TMP_PATH, WORKSPACE_PATH } from "./sandbox-paths.js";

/** A command as the API receives it, in sandbox paths. */
export interface LaunchRequest {
  readonly cmd: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

export interface Launcher {
  readonly isolation: "none" | "bwrap";
  /** Spawns the command in its own process group (`detached`), stdin/stdout/stderr piped. */
  spawn(request: LaunchRequest, dirs: SandboxDirs): ChildProcess;
}

function readRoot(): RootEntry[] {
  return readdirSync("/").map((name) => {
    const stat = lstatSync(`/${name}`);
    if (stat.isSymbolicLink()) return { name, kind: "symlink", target: readlinkSync(`/${name}`) };
    return { name, kind: stat.isDirectory() ? "dir" : "other" };
  });
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

export function createLauncher(isolation: "none" | "bwrap", bwrapPath: string): Launcher {
  const root = isolation === "bwrap" ? readRoot() : [];
  return {
    isolation,
    spawn(request, dirs) {
      if (isolation === "bwrap") {
        const env = { ...baseEnv(WORKSPACE_PATH, TMP_PATH), ...request.env };
        const argv = buildBwrapArgv(root, dirs, request.cwd, [request.cmd, ...request.args]);
        return spawn(bwrapPath, argv, { detached: true, env, stdio: "pipe" });
      }
      const rewrite = (text: string) => rewriteSandboxPaths(text, dirs);
      const env: Record<string, string> = baseEnv(dirs.workspaceDir, dirs.tmpDir);
      for (const [key, value] of Object.entries(request.env)) env[key] = rewrite(value);
      const cwd = mapSandboxPath(request.cwd, dirs) ?? request.cwd;
      return spawn(rewrite(request.cmd), request.args.map(rewrite), {
        detached: true,
        cwd,
        env,
        stdio: "pipe",
      });
    },
  };
}
