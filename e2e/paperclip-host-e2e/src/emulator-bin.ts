import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The one place that names where the CreateOS emulator's command lives (the package is also
 * this package's devDependency, so the workspace builds it first).
 */
const EMULATOR_PACKAGE = "@paperclipai/createos-emulator";
const EMULATOR_BIN = "createos-emulator";

/** The absolute path of the `createos-emulator` bin script. */
export function emulatorBinPath(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve(`${EMULATOR_PACKAGE}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin?: Record<string, string> };
  const relative = manifest.bin?.[EMULATOR_BIN];
  if (relative === undefined) throw new Error(`${EMULATOR_PACKAGE} has no "${EMULATOR_BIN}" bin`);
  return path.join(path.dirname(manifestPath), relative);
}
