import { mkdirSync } from "node:fs";
import { type OpenPrivateDirectoryOptions, verifyPrivateDirectory } from "./open-private-directory.js";
import { errnoCode, wrapOsError } from "./os-error.js";
import { PRIVATE_PATH_ERRORS } from "./private-path-errors.js";

export interface CreatePrivateDirectoryOptions extends OpenPrivateDirectoryOptions {
  /** Runs right after `mkdir` created the directory: the window a swap of its name uses. Only tests set it. */
  readonly afterCreate?: () => Promise<void>;
}

/**
 * Creates `path` with mode 0700 (its parent must exist) and verifies it as
 * `verifyPrivateDirectory` does. An existing directory is verified, never
 * chmod-ed: widening or narrowing someone else's mode silently is what the
 * check exists to refuse. The system calls are made directly (no thread-pool round trip each):
 * a durable runner creates its state directory before its handshake.
 *
 * The mode is set by `mkdir` alone, under a umask of 0077 for that one call, never by a
 * `chmod` of the path afterwards: in a parent other users may write, one can rename the new
 * directory away and leave a symlink under its name, and `chmod` follows it to whatever
 * file of ours it names.
 */
export async function createPrivateDirectory(
  path: string,
  options: CreatePrivateDirectoryOptions = {},
): Promise<void> {
  const errors = options.errors ?? PRIVATE_PATH_ERRORS;
  let created = false;
  try {
    mkdirWithOwnerBits(path);
    created = true;
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw wrapOsError(errors.directoryUnavailable, error);
  }
  if (created) await options.afterCreate?.();
  await verifyPrivateDirectory(path, options);
}

/**
 * `mkdir` 0700 whatever the process's umask: a umask can only remove bits, and an unusual
 * one (0o700) would leave a directory even its owner cannot use. The umask is the process's,
 * so it is changed for this one synchronous call only; 0077 removes no bit any file of the
 * runner's is created with.
 */
export function mkdirWithOwnerBits(path: string): void {
  const previous = process.umask(0o077);
  try {
    mkdirSync(path, { mode: 0o700 });
  } finally {
    process.umask(previous);
  }
}
