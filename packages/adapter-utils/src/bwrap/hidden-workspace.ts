import { SandboxError } from "@paperclipai/errors";
import { DEV_SHM } from "./device-directory.js";
import { isSameOrBelow } from "./mount-request.js";
import { OWN_TREES } from "./own-trees.js";

/** Why a workspace cannot be shown: the place the sandbox replaces, and how the workspace meets it. */
export interface HiddenWorkspace {
  readonly place: string;
  readonly relation: "is" | "lies in" | "holds";
  readonly cause: string;
}

export interface PrivatePlaces {
  /** The directories the scope makes private, as real paths (network-only scope; none in the workspace scope). */
  readonly masked: readonly string[];
  /** Every private socket root, in each spelling (`rootSpellings`). */
  readonly socketRoots: readonly string[];
}

/**
 * What the sandbox puts at each of its own trees: showing the host's there (a workspace on,
 * in or above them) would show the host's processes and devices, or let a root runner's
 * program write the host's kernel settings, and not showing it loses the program's writes.
 * `/dev/shm` is the exception: its host path is bound back, the socket root masked.
 */
const OWN_TREE_CAUSES: Readonly<Record<(typeof OWN_TREES)[number], string>> = {
  "/proc": "its own /proc",
  "/dev": "its own /dev",
  "/sys": "a read-only /sys or none (the host's kernel settings)",
};

function relationOf(workspace: string, place: string): HiddenWorkspace["relation"] {
  return workspace === place ? "is" : isSameOrBelow(place, workspace) ? "lies in" : "holds";
}

/**
 * Where `workspace` meets a place the sandbox replaces and cannot show again (pure): its own
 * `/proc` or `/dev`, or `/sys` (on, in or above), a private socket root (on or in: it stays hidden), or,
 * in the network-only scope, a masked directory strictly below it (the workspace would show
 * the host's tree with a private hole there; binding it back over that mask would undo it, and
 * above `/tmp` is `/`, above `/proc` too). A workspace that is exactly a masked directory or
 * `/dev/shm` is not here: it is bound back, the socket roots in it masked.
 */
export function findHiddenWorkspace(workspace: string, places: PrivatePlaces): HiddenWorkspace | null {
  for (const tree of OWN_TREES) {
    const cause = OWN_TREE_CAUSES[tree];
    const meets = isSameOrBelow(workspace, tree) || isSameOrBelow(tree, workspace);
    if (meets && !isSameOrBelow(DEV_SHM, workspace)) {
      return { place: tree, relation: relationOf(workspace, tree), cause };
    }
  }
  for (const root of places.socketRoots) {
    if (isSameOrBelow(root, workspace)) {
      return {
        place: root,
        relation: relationOf(workspace, root),
        cause: "an empty one (a private socket root)",
      };
    }
  }
  for (const dir of places.masked) {
    if (dir !== workspace && isSameOrBelow(workspace, dir)) {
      return { place: dir, relation: "holds", cause: "a private empty one" };
    }
  }
  return null;
}

/**
 * Refuses a workspace, as named or by its real path, that the sandbox would replace (in part)
 * with a directory of its own: the program would write there and lose it without an error.
 */
export function assertWorkspaceShown(
  workspace: { readonly path: string; readonly real: string },
  places: PrivatePlaces,
): void {
  for (const candidate of new Set([workspace.path, workspace.real])) {
    const found = findHiddenWorkspace(candidate, places);
    if (!found) continue;
    const { place, relation, cause } = found;
    throw new SandboxError(
      "ERR_SANDBOX_WORKSPACE_HIDDEN",
      `Sandbox workspaceDir "${workspace.path}" ${relation} "${place}", which the sandbox replaces with ${cause}: the program would not see the workspace there and its writes would be lost. Choose a workspace that is neither on, in nor above "${place}" (a directory of its own, such as /tmp/<name>, works).`,
      { details: { workspaceDir: workspace.path, realPath: workspace.real, place, cause }, retryable: false },
    );
  }
}
