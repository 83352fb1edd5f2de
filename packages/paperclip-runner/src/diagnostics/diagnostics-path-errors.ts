import type { PrivatePathErrors } from "../private-fs/private-path-errors.js";

/** The diagnostics directory's codes and messages; the messages are upstream's, verbatim. */
export const DIAGNOSTICS_PATH_ERRORS: PrivatePathErrors = {
  notDirectory: {
    code: "ERR_RUNNER_DIAGNOSTICS_PATH_NOT_DIRECTORY",
    message: "runner diagnostics path is not a real directory",
  },
  directoryPermissions: {
    code: "ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS",
    message: "runner diagnostics directory is accessible by group or other users",
  },
  directoryOwner: {
    code: "ERR_RUNNER_DIAGNOSTICS_DIR_OWNER",
    message: "runner diagnostics directory is not owned by the daemon's effective user",
  },
  directorySwapped: {
    code: "ERR_RUNNER_DIAGNOSTICS_DIR_SWAPPED",
    message: "runner diagnostics directory changed between check and use",
  },
  directoryUnavailable: "ERR_RUNNER_DIAGNOSTICS_DIR_MISSING",
  temporaryExhausted: {
    code: "ERR_RUNNER_DIAGNOSTICS_TEMP_EXHAUSTED",
    message: "could not allocate a runner diagnostic temporary file",
  },
  writeFailed: "ERR_RUNNER_DIAGNOSTICS_WRITE_FAILED",
};
