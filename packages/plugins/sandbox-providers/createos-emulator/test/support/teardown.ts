import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { onTestFinished } from "vitest";
import { startCreateosEmulator } from "../../src/start-emulator.js";
import type { CreateosEmulator, CreateosEmulatorOptions } from "../../src/types.js";

/**
 * What a test starts, undone when the test finishes, passed or failed: each helper
 * registers its own teardown with `onTestFinished`, so an assertion that throws midway
 * leaves no directory, emulator or process behind.
 */

/** A private directory under the OS temp dir, removed with everything in it. */
export function tempDirForTest(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  removeAfterTest(dir);
  return dir;
}

/** A path some other process made for the test (removed with everything below it). */
export function removeAfterTest(path: string): void {
  onTestFinished(() => rmSync(path, { recursive: true, force: true }));
}

/** An emulator closed after the test (closing kills its process trees and removes its directories). */
export async function emulatorForTest(options: CreateosEmulatorOptions = {}): Promise<CreateosEmulator> {
  const emulator = await startCreateosEmulator(options);
  onTestFinished(() => emulator.close());
  return emulator;
}

/**
 * A child process stopped after the test if it is still running: SIGTERM first (an emulator
 * then cleans up after itself), SIGKILL if it has not exited a few seconds later.
 */
export function childForTest<Child extends ChildProcess>(start: () => Child): Child {
  const child = start();
  onTestFinished(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    const patience = new AbortController();
    child.kill("SIGTERM");
    const stopped = await Promise.race([
      exited.then(() => true),
      delay(5_000, false, { signal: patience.signal }).catch(() => false),
    ]);
    patience.abort();
    if (!stopped) {
      child.kill("SIGKILL");
      await exited;
    }
  });
  return child;
}

/** Kills a process group the test saw (for example a sandbox process) if it outlived the test. */
export function killGroupAfterTest(pgid: number): void {
  onTestFinished(() => {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // Already gone: the usual case.
    }
  });
}

/** What starting an emulator rejects with; one that starts anyway is closed after the test (and `undefined` returned). */
export async function startFailure(options: CreateosEmulatorOptions): Promise<unknown> {
  try {
    await emulatorForTest(options);
  } catch (error) {
    return error;
  }
  return undefined;
}
