import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";

const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));

let copy: string | null = null;

afterAll(() => {
  if (copy !== null) rmSync(copy, { recursive: true, force: true });
  copy = null;
});

/**
 * The built bin, copied with what it loads (its `dist/` and `@paperclipai/errors`)
 * into a world-readable temporary directory, for tests that run it as another
 * user: such a user cannot reach a checkout below a private (0700) directory, such as
 * anything under `/root`. Made once per test file and removed after it.
 */
export function reachableBin(): { readonly bin: string; readonly root: string } {
  if (copy === null) {
    const root = mkdtempSync(join(tmpdir(), "runnerd-reachable-"));
    chmodSync(root, 0o755);
    for (const entry of ["package.json", "bin", "dist"])
      cpSync(join(PACKAGE_ROOT, entry), join(root, entry), { recursive: true });
    const errorsRoot = dirname(
      createRequire(join(PACKAGE_ROOT, "package.json")).resolve("@paperclipai/errors/package.json"),
    );
    const target = join(root, "node_modules/@paperclipai/errors");
    mkdirSync(target, { recursive: true });
    for (const entry of ["package.json", "dist"])
      cpSync(join(errorsRoot, entry), join(target, entry), { recursive: true, dereference: true });
    copy = root;
  }
  return { bin: join(copy, "bin/paperclip-runnerd.js"), root: copy };
}
