import { isSameOrBelow, type MountRequest, parentDirectories } from "./mount-request.js";

/**
 * Binds back, over the masked directories of a host-root sandbox, the paths the
 * program needs there: parents are created only inside a masked directory, and a
 * path already shown with its access by an earlier bind-back above it is skipped.
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
    if (!this.masked.some((dir) => dir !== request.path && isSameOrBelow(dir, request.path))) return;
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
