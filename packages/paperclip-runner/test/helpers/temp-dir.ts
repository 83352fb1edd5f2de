import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

const created: string[] = [];

// Runs after each test, failed or not: nothing a test creates outlives it.
afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh 0700 directory under the OS temp dir, removed after the test. The package's one temp-dir helper. */
export function tempDirSync(prefix = "runnerd-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** `tempDirSync`, for async call sites. */
export async function tempDir(prefix = "runnerd-test-"): Promise<string> {
  return tempDirSync(prefix);
}
