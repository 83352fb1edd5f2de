import { SandboxError } from "@paperclipai/errors";
import { isSameOrBelow } from "./mount-request.js";

/** A path the caller names for the sandbox other than the workspace: the option, as named, and its real path. */
export interface NamedPath {
  readonly option: "cwd" | "extraPaths" | "managedPaths";
  readonly path: string;
  readonly real: string;
}

/**
 * The first named path on or in a private socket root (as named or by its real path), and
 * that root, or `null` (pure). Every sandbox masks a root with an empty directory after the
 * binds, so such a path is bound and then hidden: the program sees nothing there and its
 * writes are lost without an error. `socketRoots` holds every root in each spelling.
 */
export function findPathInSocketRoot(
  paths: readonly NamedPath[],
  socketRoots: readonly string[],
): { readonly named: NamedPath; readonly socketRoot: string } | null {
  for (const named of paths) {
    for (const candidate of new Set([named.path, named.real])) {
      const socketRoot = socketRoots.find((root) => isSameOrBelow(root, candidate));
      if (socketRoot !== undefined) return { named, socketRoot };
    }
  }
  return null;
}

/** Refuses a cwd, extra or managed path that the sandbox's socket-root masks would hide (`findPathInSocketRoot`). */
export function assertNoPathInSocketRoot(paths: readonly NamedPath[], socketRoots: readonly string[]): void {
  const found = findPathInSocketRoot(paths, socketRoots);
  if (!found) return;
  const { named, socketRoot } = found;
  throw new SandboxError(
    "ERR_SANDBOX_PATH_IN_SOCKET_ROOT",
    `Sandbox ${named.option} path "${named.path}" lies in the private socket root "${socketRoot}", which every sandbox hides behind an empty directory: the program would not see it and its writes would be lost.`,
    {
      details: { option: named.option, path: named.path, realPath: named.real, socketRoot },
      retryable: false,
    },
  );
}
