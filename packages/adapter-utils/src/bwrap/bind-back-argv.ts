import { isSameOrBelow, type MountRequest, parentDirectories } from "./mount-request.js";
import { OWN_TREES } from "./own-trees.js";

/**
 * Binds back, over the masked directories of a host-root sandbox, the paths the
 * program needs there (a requested masked directory itself included): parents are
 * created only inside a masked directory, and a path already shown with its access by
 * an earlier bind-back above it is skipped.
 * Outside the masks the host tree shows every path writable, so a path the caller
 * asked for read-only (not a program's start-up path) is bound read-only onto itself,
 * and a writable one below it writable again; never one on, in or above the sandbox's
 * own trees or above a masked directory, which keep what the scope gives them.
 */
export class BindBackArgv {
  private readonly created: Set<string>;
  private readonly boundRequests: MountRequest[] = [];

  constructor(
    private readonly args: string[],
    private readonly masked: readonly string[],
  ) {
    this.created = new Set(masked);
  }

  get bound(): readonly MountRequest[] {
    return this.boundRequests;
  }

  bindBack(request: MountRequest): void {
    if (!this.hiddenByMask(request) && !this.needsOwnAccess(request)) return;
    if (this.coveringBind(request.path)?.access === request.access) return;
    this.createParents(request.path);
    this.args.push(request.access === "rw" ? "--bind" : "--ro-bind", request.path, request.path);
    this.created.add(request.path);
    this.boundRequests.push(request);
  }

  /** `--dir` for each parent of `dest` inside a masked directory that nothing created yet. */
  createParents(dest: string): void {
    for (const parent of parentDirectories(dest)) {
      if (this.created.has(parent) || !this.masked.some((dir) => isSameOrBelow(dir, parent))) continue;
      this.args.push("--dir", parent);
      this.created.add(parent);
    }
  }

  /**
   * A path under a masked directory, or one the caller asked for that is that directory
   * itself (a `/tmp` workspace: the program would write into the private one and lose it).
   * A program's start-up directory is never a masked one (`executableReadPaths`).
   */
  private hiddenByMask(request: MountRequest): boolean {
    return this.masked.some(
      (dir) => isSameOrBelow(dir, request.path) && (dir !== request.path || request.programDir === undefined),
    );
  }

  /**
   * A requested path outside the masks that the host tree does not show with its access;
   * never one on, in or above the sandbox's own trees (a read-only `/` would put the
   * host's back over them and over every mask).
   */
  private needsOwnAccess(request: MountRequest): boolean {
    if (request.programDir !== undefined) return false;
    const path = request.path;
    if (OWN_TREES.some((tree) => isSameOrBelow(tree, path) || isSameOrBelow(path, tree))) return false;
    if (this.masked.some((dir) => isSameOrBelow(path, dir))) return false;
    return (this.coveringBind(path)?.access ?? "rw") !== request.access;
  }

  private coveringBind(candidate: string): MountRequest | undefined {
    let covering: MountRequest | undefined;
    for (const entry of this.boundRequests) {
      if (isSameOrBelow(entry.path, candidate) && (!covering || entry.path.length > covering.path.length)) {
        covering = entry;
      }
    }
    return covering;
  }
}
