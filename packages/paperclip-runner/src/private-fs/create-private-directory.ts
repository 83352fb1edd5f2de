import { chmod, mkdir } from "node:fs/promises";
import { type OpenPrivateDirectoryOptions, verifyPrivateDirectory } from "./open-private-directory.js";
import { errnoCode, wrapOsError } from "./os-error.js";
import { PRIVATE_PATH_ERRORS } from "./private-path-errors.js";

/**
 * Creates `path` with mode 0700 (its parent must exist) and verifies it as
 * `verifyPrivateDirectory` does. An existing directory is verified, never
 * chmod-ed: widening or narrowing someone else's mode silently is what the
 * check exists to refuse.
 */
export async function createPrivateDirectory(
  path: string,
  options: OpenPrivateDirectoryOptions = {},
): Promise<void> {
  const errors = options.errors ?? PRIVATE_PATH_ERRORS;
  try {
    await mkdir(path, { mode: 0o700 });
    // A umask can only remove bits; an unusual one (0o700) would leave a directory even its owner cannot use.
    await chmod(path, 0o700);
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw wrapOsError(errors.directoryUnavailable, error);
  }
  await verifyPrivateDirectory(path, options);
}
