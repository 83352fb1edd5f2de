import { mkdirSync } from "node:fs";
import { rmdir } from "node:fs/promises";
import path from "node:path";
import { socketRootExposures } from "../bwrap/socket-root-exposures.js";

/**
 * Creates (0700) each private socket root that a requested bind (`sources`) would
 * show: bwrap cannot put a mask on a path missing inside a read-only bind, and a
 * root another run creates later would appear through that bind unmasked. A root
 * that cannot be created (read-only or missing base) cannot be created by that
 * run either. Returns what removes the directories created here, once the
 * sandbox is gone and only while they are still empty (a run may have started
 * using one), or `null` when nothing was created.
 */
export function createExposedSocketRoots(
  sources: readonly string[],
  roots: readonly string[],
): (() => Promise<void>) | null {
  const created: { leaf: string; top: string }[] = [];
  const binds = sources.map((source) => ({ source, dest: source }));
  for (const exposure of socketRootExposures(binds, roots)) {
    try {
      const top = mkdirSync(exposure.hostPath, { recursive: true, mode: 0o700 });
      if (top !== undefined) created.push({ leaf: exposure.hostPath, top });
    } catch {}
  }
  if (created.length === 0) return null;
  return async () => {
    for (const { leaf, top } of created) {
      for (let dir = leaf; ; dir = path.dirname(dir)) {
        const removed = await rmdir(dir).then(
          () => true,
          () => false,
        );
        if (!removed || dir === top) break;
      }
    }
  };
}
