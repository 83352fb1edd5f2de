import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  openSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { RunnerError } from "@paperclipai/errors";
import { createTemporary } from "./atomic-private-write.js";
import { mkdirWithOwnerBits } from "./create-private-directory.js";
import { assertPrivateDirectory } from "./open-private-directory.js";
import { errnoCode, wrapOsError } from "./os-error.js";
import { PRIVATE_PATH_ERRORS } from "./private-path-errors.js";
import { sweepStaleTemporariesSync } from "./sweep-stale-temporaries.js";

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Puts `bytes` at `dir/name`, `dir` a private (0700, ours) directory created if missing, and
 * returns that path: a copy of a file checked elsewhere that only this user can change, so what
 * later opens it by path reads the checked bytes. Synchronous (a provider's spawn spec is
 * built synchronously); the copy replaces the previous one by a rename, never by a write in
 * place, so a process still starting from the previous copy reads one whole file. Not synced to
 * disk: a crash loses a copy the next launch writes again. Failures throw the
 * `ERR_RUNNER_PRIVATE_DIR_*` and `ERR_RUNNER_PRIVATE_WRITE_*` codes.
 */
export function writePrivateCopy(dir: string, name: string, bytes: Uint8Array): string {
  const errors = PRIVATE_PATH_ERRORS;
  try {
    mkdirWithOwnerBits(dir);
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw wrapOsError(errors.directoryUnavailable, error);
  }
  let directory: number;
  try {
    directory = openSync(dir, DIRECTORY_FLAGS);
  } catch (error) {
    // A symlink or a file planted under the directory's name.
    if (errnoCode(error) === "ELOOP" || errnoCode(error) === "ENOTDIR") {
      throw new RunnerError(errors.notDirectory.code, errors.notDirectory.message, {
        cause: error,
        details: { errno: errnoCode(error) ?? "UNKNOWN" },
      });
    }
    throw wrapOsError(errors.directoryUnavailable, error);
  }
  try {
    assertPrivateDirectory(fstatSync(directory), errors);
  } finally {
    closeSync(directory);
  }
  sweepStaleTemporariesSync(dir, name);
  const { fd, path } = createTemporary(dir, name, errors);
  try {
    try {
      fchmodSync(fd, 0o600);
      writeFileSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    renameSync(path, join(dir, name));
  } catch (error) {
    try {
      unlinkSync(path);
    } catch {
      // Already gone: nothing to clean up.
    }
    throw wrapOsError(errors.writeFailed, error);
  }
  return join(dir, name);
}
