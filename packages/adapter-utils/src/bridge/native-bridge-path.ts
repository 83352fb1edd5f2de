import path from "node:path";
import { ownPackageRoot } from "../package-root.js";

export const NATIVE_BRIDGE_FILE_NAME = "paperclip-sandbox-bridge";
/** The freestanding exec shim of the scopes without a bridge (native/exec-shim/), built beside it. */
export const EXEC_SHIM_FILE_NAME = "paperclip-sandbox-exec";
/** What the exec shim says, exit 125, when it is given no program: its probe's answer. */
export const EXEC_SHIM_USAGE_LINE = "usage: paperclip-sandbox-exec <program> [args...]\n";

/** What `paperclip-sandbox-bridge --version` prints; anything else is not a bridge this package can drive. */
export const NATIVE_BRIDGE_VERSION_LINE = "paperclip-sandbox-bridge 4\n";

/**
 * Test-only: the test command's sanitizer step points the native and handoff tests at the
 * ASan+UBSan build (dist/native-sanitized/) through this variable. Not an API.
 */
export const NATIVE_BRIDGE_UNDER_TEST_ENV = "PAPERCLIP_SANDBOX_NATIVE_BRIDGE_UNDER_TEST";

let cached: string | null | undefined;

/**
 * Where the package build (scripts/build-native-bridge.mjs) puts the native bridge
 * for this platform and architecture: `dist/native/<platform>-<arch>/`. Found from
 * this module's own location, so it holds for `src/` under test and for `dist/`
 * in an installed package alike. `null` only when no package root is found.
 */
export function nativeBridgePath(): string | null {
  if (cached !== undefined) return cached;
  const underTest = process.env[NATIVE_BRIDGE_UNDER_TEST_ENV];
  if (underTest) {
    cached = underTest;
    return cached;
  }
  cached = shippedBinaryPath(NATIVE_BRIDGE_FILE_NAME);
  return cached;
}

/**
 * Where the build puts the exec shim for this platform and architecture. The sanitizer
 * step does not replace it: a binary without libc has no sanitizer runtime to link.
 */
export function execShimPath(): string | null {
  return shippedBinaryPath(EXEC_SHIM_FILE_NAME);
}

function shippedBinaryPath(fileName: string): string | null {
  const root = ownPackageRoot();
  return root ? path.join(root, "dist", "native", `${process.platform}-${process.arch}`, fileName) : null;
}
