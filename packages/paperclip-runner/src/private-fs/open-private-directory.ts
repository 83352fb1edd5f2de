import { closeSync, constants, fstatSync, lstatSync, openSync, type Stats } from "node:fs";
import { type FileHandle, lstat, open } from "node:fs/promises";
import { resolve } from "node:path";
import { RunnerError } from "@paperclipai/errors";
import { errnoCode, wrapOsError } from "./os-error.js";
import { effectiveUid, fileKind, formatMode, privatePathProblem } from "./private-mode-policy.js";
import { PRIVATE_PATH_ERRORS, type PrivatePathErrors } from "./private-path-errors.js";

/** An open, checked private directory. Close `handle` when done. */
export interface OpenPrivateDirectory {
  /** The checked path, resolved to an absolute one without `.`, `..` or a trailing slash. */
  readonly path: string;
  /** A read-only `O_DIRECTORY|O_NOFOLLOW` descriptor of the checked directory (for `fsync`). */
  readonly handle: FileHandle;
  /** `fstat` of `handle`. */
  readonly stats: Stats;
}

export interface OpenPrivateDirectoryOptions {
  readonly errors?: PrivatePathErrors;
  /**
   * Runs between the `lstat` check and the `open`: the window a symlink race
   * uses. Only tests set it, to swap the directory there for real.
   */
  readonly betweenCheckAndOpen?: () => Promise<void>;
}

const SWAP_ERRNOS = new Set(["ELOOP", "ENOTDIR", "ENOENT"]);

/** Whether two stat results name the same inode. */
export function sameInode(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Checks that `path` is a private directory and opens it, bound to what was
 * checked: `lstat` (no link following) must show a directory without group or
 * other bits, owned by the effective uid; then `open` with
 * `O_DIRECTORY|O_NOFOLLOW`, and `fstat` on the descriptor must be the same
 * inode and pass the same checks. A swap between the steps is reported, not followed.
 */
export async function openPrivateDirectory(
  path: string,
  options: OpenPrivateDirectoryOptions = {},
): Promise<OpenPrivateDirectory> {
  const { handle, ...checked } = await openCheckedDirectory(path, options, {
    lstat,
    open: (target) => open(target, DIRECTORY_FLAGS),
    stat: (opened) => opened.stat(),
    close: (opened) => opened.close(),
  });
  return { ...checked, handle };
}

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The system calls one check runs on: thread-pool ones (`fs/promises`) or direct ones. */
interface DirectoryCalls<Handle> {
  lstat(path: string): Stats | Promise<Stats>;
  open(path: string): Handle | Promise<Handle>;
  stat(handle: Handle): Stats | Promise<Stats>;
  close(handle: Handle): void | Promise<void>;
}

/** The check both openers share, whichever calls it runs on. */
async function openCheckedDirectory<Handle>(
  path: string,
  options: OpenPrivateDirectoryOptions,
  calls: DirectoryCalls<Handle>,
): Promise<{ path: string; handle: Handle; stats: Stats }> {
  const errors = options.errors ?? PRIVATE_PATH_ERRORS;
  // `link/` or `link/.` would make lstat and O_NOFOLLOW follow the link: the last component is
  // then "." or empty, not the link. Resolved, the link itself is what gets checked and used.
  const target = resolve(path);
  let checked: Stats;
  try {
    checked = await calls.lstat(target);
  } catch (error) {
    throw wrapOsError(errors.directoryUnavailable, error);
  }
  // Refuse on what lstat saw before opening anything: a directory we may not even open
  // (another owner's 0700) is reported as what it is, not as an open failure.
  assertPrivateDirectory(checked, errors);
  await options.betweenCheckAndOpen?.();
  let handle: Handle;
  try {
    handle = await calls.open(target);
  } catch (error) {
    throw openFailure(error, errors);
  }
  try {
    const opened = await calls.stat(handle);
    assertOpenedAsChecked(checked, opened, errors);
    return { path: target, handle, stats: opened };
  } catch (error) {
    await calls.close(handle);
    throw error;
  }
}

/** The failure to report when opening a directory `lstat` saw fails. */
export function openFailure(error: unknown, errors: PrivatePathErrors): Error {
  // lstat saw a real directory: a symlink, a non-directory or nothing at all now means it was replaced.
  if (SWAP_ERRNOS.has(errnoCode(error) ?? "")) {
    return new RunnerError(errors.directorySwapped.code, errors.directorySwapped.message, {
      cause: error,
      details: { errno: errnoCode(error) ?? "UNKNOWN" },
    });
  }
  return wrapOsError(errors.directoryUnavailable, error);
}

/** Throws unless the opened descriptor's `fstat` is the inode `lstat` checked, and still private. */
export function assertOpenedAsChecked(checked: Stats, opened: Stats, errors: PrivatePathErrors): void {
  if (!sameInode(checked, opened)) {
    throw new RunnerError(errors.directorySwapped.code, errors.directorySwapped.message, {
      details: { reason: "the opened descriptor is another inode than the checked path" },
    });
  }
  assertPrivateDirectory(opened, errors);
}

/** Throws the policy's failure (the codes of `errors`) unless `stats` show a private directory of ours. */
export function assertPrivateDirectory(stats: Stats, errors: PrivatePathErrors = PRIVATE_PATH_ERRORS): void {
  const euid = effectiveUid();
  const problem = privatePathProblem(stats, "directory", euid);
  if (problem === "wrong-type") {
    throw new RunnerError(errors.notDirectory.code, errors.notDirectory.message, {
      details: { kind: fileKind(stats) },
    });
  }
  if (problem === "group-or-other-access") {
    throw new RunnerError(errors.directoryPermissions.code, errors.directoryPermissions.message, {
      details: { mode: formatMode(stats.mode) },
    });
  }
  if (problem === "wrong-owner") {
    throw new RunnerError(errors.directoryOwner.code, errors.directoryOwner.message, {
      details: { uid: stats.uid, euid },
    });
  }
}

/**
 * Checks that `path` is a real directory (not a symlink), with no group or
 * other permission bit (`mode & 0o077 == 0`), owned by the effective uid; the
 * check is bound to a descriptor opened `O_DIRECTORY|O_NOFOLLOW`, so a swap
 * between check and open is caught. Throws a coded `RunnerError`
 * (`ERR_RUNNER_PRIVATE_DIR_*` by default, or the codes of `options.errors`).
 */
export async function verifyPrivateDirectory(
  path: string,
  options: OpenPrivateDirectoryOptions = {},
): Promise<void> {
  const directory = await openPrivateDirectoryDescriptor(path, options);
  closeSync(directory.fd);
}

/** An open, checked private directory as a plain descriptor. Close `fd` (`closeSync`) when done. */
export interface OpenedPrivateDirectoryDescriptor {
  /** The checked path, resolved as `openPrivateDirectory` resolves it. */
  readonly path: string;
  /** A read-only `O_DIRECTORY|O_NOFOLLOW` descriptor of the checked directory. */
  readonly fd: number;
  /** `fstat` of `fd`. */
  readonly stats: Stats;
}

/**
 * `openPrivateDirectory`'s checks (`lstat`, then an `open` bound to the same inode) in direct
 * system calls, on a descriptor: each `fs/promises` call is a round trip through libuv's thread
 * pool, and a durable runner checks its state directory several times before its handshake
 * (what a session's first answer waits for). Only the test hook is awaited.
 */
export async function openPrivateDirectoryDescriptor(
  path: string,
  options: OpenPrivateDirectoryOptions = {},
): Promise<OpenedPrivateDirectoryDescriptor> {
  const { handle, ...checked } = await openCheckedDirectory(path, options, {
    lstat: lstatSync,
    open: (target) => openSync(target, DIRECTORY_FLAGS),
    stat: fstatSync,
    close: closeSync,
  });
  return { ...checked, fd: handle };
}

/** Throws the swap failure when `path` no longer names the opened directory. */
export async function assertStillSameDirectory(
  directory: OpenPrivateDirectory,
  errors: PrivatePathErrors = PRIVATE_PATH_ERRORS,
): Promise<void> {
  let current: Stats;
  try {
    current = await lstat(directory.path);
  } catch (error) {
    throw stillSameLstatFailure(error, errors);
  }
  assertStillSameInode(current, directory.stats, errors);
}

/** The failure to report when the opened directory's path can no longer be `lstat`ed. */
export function stillSameLstatFailure(error: unknown, errors: PrivatePathErrors): Error {
  return new RunnerError(errors.directorySwapped.code, errors.directorySwapped.message, {
    cause: error,
    details: { errno: errnoCode(error) ?? "UNKNOWN" },
  });
}

/** Throws the swap failure unless `current` (an `lstat` of the path) is the opened directory. */
export function assertStillSameInode(current: Stats, opened: Stats, errors: PrivatePathErrors): void {
  if (current.isSymbolicLink() || !sameInode(current, opened)) {
    throw new RunnerError(errors.directorySwapped.code, errors.directorySwapped.message, {
      details: { reason: "the path names another inode than the opened directory" },
    });
  }
}
