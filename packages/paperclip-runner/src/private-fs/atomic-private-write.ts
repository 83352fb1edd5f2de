import { constants } from "node:fs";
import { type FileHandle, open, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { RunnerError } from "@paperclipai/errors";
import {
  assertStillSameDirectory,
  type OpenPrivateDirectoryOptions,
  openPrivateDirectory,
} from "./open-private-directory.js";
import { errnoCode, wrapOsError } from "./os-error.js";
import { PRIVATE_PATH_ERRORS } from "./private-path-errors.js";
import { sweepStaleTemporaries } from "./sweep-stale-temporaries.js";
import { isPlainFileName, TEMPORARY_ATTEMPTS, temporaryName } from "./temporary-name.js";

export interface AtomicPrivateWriteOptions extends OpenPrivateDirectoryOptions {
  /** Runs after the temporary file is synced, before the final identity check and rename. Only tests set it. */
  readonly beforeRename?: () => Promise<void>;
}

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Replaces `dir/name` with `bytes` atomically and privately: a reader (or a
 * crash at any instant) sees the previous file or the new one, never a part.
 *
 * 1. `dir` is checked as `verifyPrivateDirectory` does and kept open.
 * 2. Temporary files of dead processes are swept.
 * 3. `.${name}.${pid}.${attempt}.tmp` is created exclusively and without
 *    following links (`O_CREAT|O_EXCL|O_NOFOLLOW`), mode 0600, then
 *    `fchmod` 0600 so no umask can change it; an existing name moves on to the
 *    next attempt, 0 to 31.
 * 4. The bytes are written and `fsync`ed, the directory is checked to still be
 *    the opened one, the temporary file is renamed over `name` and the
 *    directory is `fsync`ed, so the rename itself survives a power loss.
 *
 * Any failure removes the temporary file. Unlike `write-file-atomic`, this
 * never follows a symlink, always creates exclusively and syncs the directory.
 */
export async function atomicPrivateWrite(
  dir: string,
  name: string,
  bytes: Uint8Array | string,
  options: AtomicPrivateWriteOptions = {},
): Promise<void> {
  const errors = options.errors ?? PRIVATE_PATH_ERRORS;
  if (!isPlainFileName(name)) {
    throw new RunnerError("ERR_RUNNER_INVALID_ARGUMENT", "invalid name: must be a single path component", {
      details: { name: "name", reason: "must be a single path component" },
    });
  }
  const directory = await openPrivateDirectory(dir, options);
  try {
    await sweepStaleTemporaries(directory.path, name);
    const { file, path } = await createTemporary(directory.path, name, errors);
    try {
      try {
        await file.chmod(0o600);
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      await options.beforeRename?.();
      await assertStillSameDirectory(directory, errors);
      await rename(path, join(directory.path, name));
    } catch (error) {
      await unlink(path).catch(() => undefined);
      throw wrapOsError(errors.writeFailed, error);
    }
    try {
      await directory.handle.sync();
    } catch (error) {
      throw wrapOsError(errors.writeFailed, error);
    }
  } finally {
    await directory.handle.close();
  }
}

async function createTemporary(
  dir: string,
  name: string,
  errors: typeof PRIVATE_PATH_ERRORS,
): Promise<{ file: FileHandle; path: string }> {
  for (let attempt = 0; attempt < TEMPORARY_ATTEMPTS; attempt += 1) {
    const path = join(dir, temporaryName(name, process.pid, attempt));
    try {
      return { file: await open(path, CREATE_FLAGS, 0o600), path };
    } catch (error) {
      if (errnoCode(error) !== "EEXIST") throw wrapOsError(errors.writeFailed, error);
    }
  }
  throw new RunnerError(errors.temporaryExhausted.code, errors.temporaryExhausted.message, {
    details: { name, attempts: TEMPORARY_ATTEMPTS },
  });
}
