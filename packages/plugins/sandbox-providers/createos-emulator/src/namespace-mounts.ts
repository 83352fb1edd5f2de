import { posix } from "node:path";
import { type SandboxDirs, TMP_PATH, WORKSPACE_PATH } from "./sandbox-paths.js";

/** One entry of the host's `/`, as the namespace's root shows it again. */
export type RootEntry =
  | { readonly name: string; readonly kind: "symlink"; readonly target: string }
  | { readonly name: string; readonly kind: "mountable" };

// Not shown from the host: the sandbox's own directories take these places.
const REPLACED = new Set([WORKSPACE_PATH.slice(1), TMP_PATH.slice(1)]);

/**
 * bubblewrap's arguments for isolation `"namespace"`: a mount namespace whose root shows every
 * entry of the host's `/` again (devices, `/proc` and sockets included, writable as on the
 * host) except `/paperclip-workspace` and `/tmp`, which are the sandbox's directories. Binding
 * `/` whole would make bubblewrap create the `/paperclip-workspace` mount point on the host's
 * root, so the namespace's root is bubblewrap's own tmpfs with the host's entries bound on it.
 * No other namespace is made: processes, network and the caller's uid stay the host's, so a
 * background process outlives its command and reaches loopback, as in a CreateOS VM.
 */
export function namespaceMountArgs(
  rootEntries: readonly RootEntry[],
  dirs: SandboxDirs,
  cwd: string,
): string[] {
  const args: string[] = [];
  for (const entry of [...rootEntries].sort((a, b) => a.name.localeCompare(b.name))) {
    if (REPLACED.has(entry.name)) continue;
    const path = posix.join("/", entry.name);
    if (entry.kind === "symlink") args.push("--symlink", entry.target, path);
    else args.push("--dev-bind", path, path);
  }
  args.push("--bind", dirs.workspaceDir, WORKSPACE_PATH, "--bind", dirs.tmpDir, TMP_PATH, "--chdir", cwd);
  return args;
}
