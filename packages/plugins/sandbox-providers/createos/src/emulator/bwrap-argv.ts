import { type SandboxDirs, TMP_PATH, WORKSPACE_PATH } from "./sandbox-paths.js";

/** One entry of the host's `/`, as bubblewrap needs to recreate it. */
export interface RootEntry {
  readonly name: string;
  readonly kind: "dir" | "symlink" | "other";
  /** The link target, for symlinks. */
  readonly target?: string;
}

// Mounted fresh or replaced by the sandbox's own directories.
const REPLACED = new Set(["proc", "dev", "tmp", WORKSPACE_PATH.slice(1)]);

/**
 * The bubblewrap argv that runs `command` with the host read-only, the sandbox's directories
 * writable at `/paperclip-workspace` and `/tmp`, and a private pid namespace. The root is a
 * tmpfs rebuilt from the host's top-level entries so the mount point `/paperclip-workspace`
 * can be created although the host root is read-only.
 */
export function buildBwrapArgv(
  root: readonly RootEntry[],
  dirs: SandboxDirs,
  cwd: string,
  command: readonly string[],
): string[] {
  const argv = ["--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts"];
  for (const entry of root) {
    if (REPLACED.has(entry.name)) continue;
    if (entry.kind === "dir") argv.push("--ro-bind", `/${entry.name}`, `/${entry.name}`);
    else if (entry.kind === "symlink" && entry.target !== undefined)
      argv.push("--symlink", entry.target, `/${entry.name}`);
  }
  argv.push("--proc", "/proc", "--dev", "/dev");
  argv.push("--bind", dirs.tmpDir, TMP_PATH, "--bind", dirs.workspaceDir, WORKSPACE_PATH);
  argv.push("--chdir", cwd, "--", ...command);
  return argv;
}
