import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach } from "vitest";

const created: string[] = [];
const createdForFile: string[] = [];

// Runs after each test, failed or not: nothing a test creates outlives it.
afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const dir of createdForFile.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A directory the tests of one file share, removed after the file's last test. */
export function fileTempDir(prefix = "runnerd-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  createdForFile.push(dir);
  return dir;
}

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
