import { shellQuote } from "@paperclipai/internal";
import { type ExecResult, exec, REPO_VIEW, repoRoot } from "./sandbox-support.js";

/**
 * Where the container sees the Node running this suite: on the matrix's other lines that
 * binary lives in the toolchain cache under the home directory, which the container does
 * not show, so it is bound in by itself.
 */
export const CONTAINER_NODE = "/opt/node-under-test/node";

/**
 * Runs `shell` as root in a container of the test's own (bwrap, keeping root's capabilities
 * for the sandbox inside) whose root is `root`, a scratch directory: for a host whose `/`
 * the program may write or rename in (`/etc` a plain directory, as on a real host, never
 * the host's own). It shows the host's `/usr` read-only, the repository at `REPO_VIEW`,
 * this Node at `CONTAINER_NODE`, and fresh `/dev`, `/proc`, `/tmp` and `/run`.
 */
export function inRootContainer(root: string, shell: string, env: NodeJS.ProcessEnv): Promise<ExecResult> {
  const links = ["bin", "lib", "lib64", "sbin"].flatMap((name) => ["--symlink", `usr/${name}`, `/${name}`]);
  return exec(
    "bwrap",
    [
      ...["--bind", root, "/", "--ro-bind", "/usr", "/usr", ...links],
      ...["--dev", "/dev", "--tmpfs", "/dev/shm", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/run"],
      ...["--ro-bind", repoRoot, REPO_VIEW, "--ro-bind", process.execPath, CONTAINER_NODE],
      ...["--cap-add", "ALL", "--die-with-parent", "--", "/bin/sh", "-c", shell],
    ],
    env,
  );
}

/** `exec` of the container's Node on the ES module in `$SCRIPT`, as the last step of a shell line. */
export const execContainerScript = `exec ${shellQuote(CONTAINER_NODE)} --input-type=module -e "$SCRIPT"`;
