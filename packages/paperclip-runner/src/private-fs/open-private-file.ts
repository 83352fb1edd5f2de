import { constants, type Stats } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { RunnerError } from "@paperclipai/errors";
import { errnoCode, wrapOsError } from "./os-error.js";
import { effectiveUid, fileKind, formatMode, privatePathProblem } from "./private-mode-policy.js";

/**
 * Opens an existing private file: `O_NOFOLLOW` (a symlink is refused, not
 * followed) and `O_NONBLOCK` (a FIFO planted in its place cannot block the
 * open), then `fstat` on the descriptor must show a regular file with one name
 * (no hard link to it elsewhere), no group or other bit, owned by the effective uid. `flags` are the access flags
 * (default `O_RDONLY`); close the returned handle when done.
 *
 * Throws `ERR_RUNNER_PRIVATE_FILE_NOT_REGULAR`, `..._PERMISSIONS`, `..._OWNER`,
 * or `ERR_RUNNER_PRIVATE_FILE_UNAVAILABLE` with the OS error (ENOENT...).
 */
export async function openPrivateFile(path: string, flags: number = constants.O_RDONLY): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (errnoCode(error) === "ELOOP") {
      throw new RunnerError("ERR_RUNNER_PRIVATE_FILE_NOT_REGULAR", "private path is not a regular file", {
        cause: error,
        details: { kind: "symlink" },
      });
    }
    throw wrapOsError("ERR_RUNNER_PRIVATE_FILE_UNAVAILABLE", error);
  }
  try {
    const stats = await handle.stat();
    assertPrivateFile(stats);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Throws unless `stats` (an `fstat` of an open descriptor) shows a regular file of one link, no group or other bit, ours. */
export function assertPrivateFile(stats: Stats): void {
  const euid = effectiveUid();
  const problem = privatePathProblem(stats, "file", euid);
  if (problem === "wrong-type") {
    throw new RunnerError("ERR_RUNNER_PRIVATE_FILE_NOT_REGULAR", "private path is not a regular file", {
      details: { kind: fileKind(stats) },
    });
  }
  // A second name of the inode: whatever is written or truncated lands in that other file too
  // (a victim hard-linked into the state directory would be truncated by the journal's restart).
  if (stats.nlink !== 1) {
    throw new RunnerError("ERR_RUNNER_PRIVATE_FILE_NOT_REGULAR", "private path is not a regular file", {
      details: { kind: "hard-link", nlink: stats.nlink },
    });
  }
  if (problem === "group-or-other-access") {
    throw new RunnerError(
      "ERR_RUNNER_PRIVATE_FILE_PERMISSIONS",
      "private file is accessible by group or other users",
      {
        details: { mode: formatMode(stats.mode) },
      },
    );
  }
  if (problem === "wrong-owner") {
    throw new RunnerError(
      "ERR_RUNNER_PRIVATE_FILE_OWNER",
      "private file is not owned by the effective user",
      {
        details: { uid: stats.uid, euid },
      },
    );
  }
}
