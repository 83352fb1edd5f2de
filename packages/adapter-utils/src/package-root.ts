import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The nearest directory at or above `from` that holds a `package.json`, or `null`. */
export function nearestPackageRoot(from: string): string | null {
  let current = from;
  while (current !== path.dirname(current)) {
    if (existsSync(path.join(current, "package.json"))) return current;
    current = path.dirname(current);
  }
  return null;
}

let cached: string | null | undefined;

/**
 * This package's own root, found from this module's location: `src/` under test, and
 * `dist/` (the entry or a chunk beside it) in a build or an installed package alike.
 * The files the build puts beside the modules (`dist/node-bridge.cjs`, `dist/native/`)
 * are found from here.
 */
export function ownPackageRoot(): string | null {
  cached ??= nearestPackageRoot(path.dirname(fileURLToPath(import.meta.url)));
  return cached;
}
