import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The scripted harness's built file. In the published bundle it sits beside the
 * daemon's own entry; when the daemon's sources run directly (the package's unit
 * tests), it is the package's `dist/` copy, which the build produces first.
 */
export function fakeHarnessEntry(): string {
  const candidates = [
    new URL("./fake-harness.js", import.meta.url),
    new URL("../../../dist/fake-harness.js", import.meta.url),
  ];
  for (const candidate of candidates) {
    const path = fileURLToPath(candidate);
    if (existsSync(path)) return path;
  }
  // Not built: spawning the missing file fails visibly, as harness_start_failed.
  return fileURLToPath(candidates[0] as URL);
}
