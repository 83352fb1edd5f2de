import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";

/**
 * The package's one temp-dir helper for tests: every directory it makes is
 * removed by `removeTempDirs()`, which the shared teardowns (`cleanupAll`,
 * `closeAll`) call after each test, passed or failed. Directories live under
 * /tmp, not `os.tmpdir()`: short, so socket paths nested in them stay under
 * 107 bytes whatever `TMPDIR` the suite runs with.
 */
const created: string[] = [];

export async function tempDir(prefix = "pc-sbx-test-"): Promise<string> {
  const dir = await mkdtemp(path.join("/tmp", prefix));
  created.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  while (created.length > 0) await rm(created.pop()!, { recursive: true, force: true });
}

/** `value` as one POSIX shell word, whatever it contains (spaces, quotes). */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
