import {
  closeSync,
  constants,
  fchmodSync,
  lstatSync,
  openSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { RunnerError } from "@paperclipai/errors";
import {
  assertStillSameInode,
  type OpenedPrivateDirectoryDescriptor,
  type OpenPrivateDirectoryOptions,
  openPrivateDirectoryDescriptor,
  stillSameLstatFailure,
} from "./open-private-directory.js";
import { errnoCode, wrapOsError } from "./os-error.js";
import { PRIVATE_PATH_ERRORS } from "./private-path-errors.js";
import { sweepStaleTemporariesSync } from "./sweep-stale-temporaries.js";
import { syncToDisk } from "./sync-to-disk.js";
import { isPlainFileName, TEMPORARY_ATTEMPTS, temporaryName } from "./temporary-name.js";

export interface AtomicPrivateWriteOptions extends OpenPrivateDirectoryOptions {
  /** Runs after the temporary file is synced, before the final identity check and rename. Only tests set it. */
  readonly beforeRename?: () => Promise<void>;
}

type Errors = typeof PRIVATE_PATH_ERRORS;

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
 *
 * The system calls are made synchronously but for the two `fsync`s: each of the dozen calls of
 * one write cost a round trip through libuv's thread pool, and durable mode writes its state
 * several times on the way to a session's first answer (what the server waits for). The
 * `fsync`s wait for the disk in the pool, so the event loop goes on meanwhile: a provider's
 * output read during one state write is committed by the next, not one write per event.
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
  const directory = await openPrivateDirectoryDescriptor(dir, { ...options, errors });
  try {
    sweepStaleTemporariesSync(directory.path, name);
    const { fd, path } = createTemporary(directory.path, name, errors);
    try {
      try {
        fchmodSync(fd, 0o600);
        writeFileSync(fd, bytes);
        await syncToDisk(fd);
      } finally {
        closeSync(fd);
      }
      await options.beforeRename?.();
      assertStillSameDirectory(directory, errors);
      renameSync(path, join(directory.path, name));
    } catch (error) {
      try {
        unlinkSync(path);
      } catch {
        // Already renamed or never created: nothing is left behind.
      }
      throw wrapOsError(errors.writeFailed, error);
    }
    try {
      await syncToDisk(directory.fd);
    } catch (error) {
      throw wrapOsError(errors.writeFailed, error);
    }
  } finally {
    closeSync(directory.fd);
  }
}

function assertStillSameDirectory(directory: OpenedPrivateDirectoryDescriptor, errors: Errors): void {
  let current: Stats;
  try {
    current = lstatSync(directory.path);
  } catch (error) {
    throw stillSameLstatFailure(error, errors);
  }
  assertStillSameInode(current, directory.stats, errors);
}

/** Creates `dir`'s next free temporary file of `name` (attempts 0 to 31), exclusively and without following links. */
export function createTemporary(dir: string, name: string, errors: Errors): { fd: number; path: string } {
  for (let attempt = 0; attempt < TEMPORARY_ATTEMPTS; attempt += 1) {
    const path = join(dir, temporaryName(name, process.pid, attempt));
    try {
      return { fd: openSync(path, CREATE_FLAGS, 0o600), path };
    } catch (error) {
      if (errnoCode(error) !== "EEXIST") throw wrapOsError(errors.writeFailed, error);
    }
  }
  throw new RunnerError(errors.temporaryExhausted.code, errors.temporaryExhausted.message, {
    details: { name, attempts: TEMPORARY_ATTEMPTS },
  });
}
