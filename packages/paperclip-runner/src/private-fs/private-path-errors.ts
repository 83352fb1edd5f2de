import type { RunnerErrorCode } from "@paperclipai/errors";

/** A coded failure with a fixed message. */
export interface PrivatePathFailure {
  readonly code: RunnerErrorCode;
  readonly message: string;
}

/**
 * The codes and messages the private filesystem primitives throw. Each caller
 * that needs its own wording (the diagnostics directory keeps upstream's text)
 * passes its own table; failures that carry an OS error keep the OS message
 * verbatim under the given code.
 */
export interface PrivatePathErrors {
  readonly notDirectory: PrivatePathFailure;
  readonly directoryPermissions: PrivatePathFailure;
  readonly directoryOwner: PrivatePathFailure;
  readonly directorySwapped: PrivatePathFailure;
  /** Looking up, opening or creating the directory failed with an OS error. */
  readonly directoryUnavailable: RunnerErrorCode;
  readonly temporaryExhausted: PrivatePathFailure;
  /** Creating, writing, syncing or renaming the temporary file failed with an OS error. */
  readonly writeFailed: RunnerErrorCode;
}

/** The generic table, used for private directories such as the durable `--state-dir`. */
export const PRIVATE_PATH_ERRORS: PrivatePathErrors = {
  notDirectory: {
    code: "ERR_RUNNER_PRIVATE_DIR_NOT_DIRECTORY",
    message: "private path is not a real directory",
  },
  directoryPermissions: {
    code: "ERR_RUNNER_PRIVATE_DIR_PERMISSIONS",
    message: "private directory is accessible by group or other users",
  },
  directoryOwner: {
    code: "ERR_RUNNER_PRIVATE_DIR_OWNER",
    message: "private directory is not owned by the effective user",
  },
  directorySwapped: {
    code: "ERR_RUNNER_PRIVATE_DIR_SWAPPED",
    message: "private directory changed between check and use",
  },
  directoryUnavailable: "ERR_RUNNER_PRIVATE_DIR_MISSING",
  temporaryExhausted: {
    code: "ERR_RUNNER_PRIVATE_WRITE_TEMP_EXHAUSTED",
    message: "could not allocate a private temporary file",
  },
  writeFailed: "ERR_RUNNER_PRIVATE_WRITE_FAILED",
};
