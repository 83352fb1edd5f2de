import path from "node:path";
import { devArgs } from "./device-directory.js";
import { isSameOrBelow, type MountRequest, parentDirectories, sourceOf } from "./mount-request.js";
import { coveredOwnTrees, ownTreesRestored, type ProcMaskOptions } from "./own-trees.js";

export interface Mounted {
  /** The host path bwrap binds (a real path: bwrap resolves every source). */
  readonly source: string;
  readonly dest: string;
  readonly access: "ro" | "rw";
}

/**
 * The bwrap argv of a fresh root as it is built: every bind first creates the
 * parents no earlier mount shows, and a destination below a recreated symlink
 * is rewritten through the link (nothing is bound onto a symlink inside the sandbox).
 */
export class FreshRootArgv {
  readonly args: string[];
  private readonly created = new Set(["/", "/proc", "/dev", "/tmp"]);
  private readonly mountedEntries: Mounted[] = [];
  private readonly links = new Map<string, string>();
  /** Own trees put back over a bind that covered them, with the number of binds made before. */
  private readonly restoredTrees: { readonly tree: string; readonly after: number }[] = [];

  /** `tmpfsSize`: bytes each writable tmpfs may hold (bwrap `--size`); `null`: no cap. */
  constructor(readonly tmpfsSize: number | null = null) {
    this.args = [
      ...this.sized(),
      "--tmpfs",
      "/",
      "--proc",
      "/proc",
      ...devArgs(tmpfsSize),
      ...this.sized(),
      "--tmpfs",
      "/tmp",
    ];
  }

  /** `--size <bytes>` before a writable `--tmpfs`, when capped: it is memory a program could fill. */
  sized(): string[] {
    return this.tmpfsSize === null ? [] : ["--size", String(this.tmpfsSize)];
  }

  get mounted(): readonly Mounted[] {
    return this.mountedEntries;
  }

  bind(source: string, dest: string, access: "ro" | "rw"): void {
    this.ensureParents(dest);
    this.args.push(access === "rw" ? "--bind" : "--ro-bind", source, dest);
    this.mountedEntries.push({ source, dest, access });
    this.created.add(dest);
  }

  /**
   * Puts the sandbox's own trees back over the bind just made at `dest`, when it covers
   * them (`ownTreesRestored`): a later request in one is then bound there, not taken as
   * shown by that bind.
   */
  restoreOwnTrees(dest: string, options: ProcMaskOptions): void {
    this.args.push(...ownTreesRestored(dest, { ...options, tmpfsSize: this.tmpfsSize }));
    for (const tree of coveredOwnTrees(dest))
      this.restoredTrees.push({ tree, after: this.mountedEntries.length });
  }

  /** Recreates `link -> target`; later destinations below `link` go to `resolved`. */
  symlink(target: string, link: string, resolved: string): void {
    this.ensureParents(link);
    this.args.push("--symlink", target, link);
    this.created.add(link);
    this.links.set(link, resolved);
  }

  /** A request already shown, with its access, by a mount above it needs no bind of its own. */
  mountRequest(request: MountRequest): void {
    const dest = this.throughLinks(request.path);
    const source = sourceOf(request);
    // Only when that mount's tree holds this very source at `dest` (judged on real paths).
    const covering = this.nearestMount(dest);
    if (
      covering?.access === request.access &&
      path.join(covering.source, path.relative(covering.dest, dest)) === source
    ) {
      return;
    }
    this.bind(source, dest, request.access);
  }

  throughLinks(candidate: string): string {
    for (const [link, target] of this.links) {
      if (isSameOrBelow(link, candidate)) return target + candidate.slice(link.length);
    }
    return candidate;
  }

  /** The latest bind that shows `dest`, unless an own tree put back after it holds `dest`. */
  private nearestMount(dest: string): Mounted | undefined {
    let best: Mounted | undefined;
    let bestIndex = -1;
    this.mountedEntries.forEach((entry, index) => {
      if (isSameOrBelow(entry.dest, dest) && (!best || entry.dest.length > best.dest.length)) {
        best = entry;
        bestIndex = index;
      }
    });
    const hidden = this.restoredTrees.some(
      ({ tree, after }) => after > bestIndex && isSameOrBelow(tree, dest),
    );
    return hidden ? undefined : best;
  }

  private ensureParents(dest: string): void {
    for (const parent of parentDirectories(dest)) {
      if (this.created.has(parent) || this.nearestMount(parent)) continue;
      this.args.push("--dir", parent);
      this.created.add(parent);
    }
  }
}
