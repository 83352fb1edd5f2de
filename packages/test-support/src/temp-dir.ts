import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, onTestFinished } from "vitest";

export interface TempDirOptions {
  /**
   * Where to create it: the OS temp dir by default. `/tmp` keeps socket paths nested in it
   * under the 107-byte limit whatever `TMPDIR` the suite runs with.
   */
  readonly base?: string;
}

function makeTempDir(prefix: string, options: TempDirOptions): string {
  return mkdtempSync(join(options.base ?? tmpdir(), prefix));
}

function remove(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

/** A fresh 0700 directory, removed with everything in it when the current test finishes, passed or failed. */
export function tempDirForTest(prefix = "paperclip-test-", options: TempDirOptions = {}): string {
  const dir = makeTempDir(prefix, options);
  removeAfterTest(dir);
  return dir;
}

/**
 * A directory the tests of one file share, removed by an `afterAll` hook after the file's last test.
 * Call it at module or `describe` level (a hook registered from inside `beforeAll` never runs), and
 * before the `afterAll` that stops what uses it: vitest runs `afterAll` hooks in reverse order.
 */
export function tempDirForFile(prefix = "paperclip-test-", options: TempDirOptions = {}): string {
  const dir = makeTempDir(prefix, options);
  afterAll(() => remove(dir));
  return dir;
}

/** A path another process made for the current test, removed with everything below it when the test finishes. */
export function removeAfterTest(path: string): void {
  onTestFinished(() => remove(path));
}
