import { onTestFinished } from "vitest";
import { startCreateosEmulator } from "../../src/start-emulator.js";
import type { CreateosEmulator, CreateosEmulatorOptions } from "../../src/types.js";

/**
 * The emulator a test starts, undone when the test finishes, passed or failed: each helper
 * registers its own teardown with `onTestFinished`, so an assertion that throws midway
 * leaves no directory, emulator or process behind.
 */

/** An emulator closed after the test (closing kills its process trees and removes its directories). */
export async function emulatorForTest(options: CreateosEmulatorOptions = {}): Promise<CreateosEmulator> {
  const emulator = await startCreateosEmulator(options);
  onTestFinished(() => emulator.close());
  return emulator;
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
