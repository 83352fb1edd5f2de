import { chmodSync, mkdirSync } from "node:fs";
import { type OpenPrivateDirectoryOptions, verifyPrivateDirectory } from "./open-private-directory.js";
import { errnoCode, wrapOsError } from "./os-error.js";
import { PRIVATE_PATH_ERRORS } from "./private-path-errors.js";

/**
 * Creates `path` with mode 0700 (its parent must exist) and verifies it as
 * `verifyPrivateDirectory` does. An existing directory is verified, never
 * chmod-ed: widening or narrowing someone else's mode silently is what the
 * check exists to refuse. The system calls are made directly (no thread-pool round trip each):
 * a durable runner creates its state directory before its handshake.
 */
export async function createPrivateDirectory(
  path: string,
  options: OpenPrivateDirectoryOptions = {},
): Promise<void> {
  const errors = options.errors ?? PRIVATE_PATH_ERRORS;
  try {
    mkdirSync(path, { mode: 0o700 });
    // A umask can only remove bits; an unusual one (0o700) would leave a directory even its owner cannot use.
    chmodSync(path, 0o700);
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw wrapOsError(errors.directoryUnavailable, error);
  }
  await verifyPrivateDirectory(path, options);
}
