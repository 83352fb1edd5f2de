export { type AtomicPrivateWriteOptions, atomicPrivateWrite } from "./atomic-private-write.js";
export { createPrivateDirectory } from "./create-private-directory.js";
export {
  type OpenPrivateDirectory,
  type OpenPrivateDirectoryOptions,
  openPrivateDirectory,
  verifyPrivateDirectory,
} from "./open-private-directory.js";
export { openPrivateFile } from "./open-private-file.js";
export {
  PRIVATE_PATH_ERRORS,
  type PrivatePathErrors,
  type PrivatePathFailure,
} from "./private-path-errors.js";
export { sweepStaleTemporaries } from "./sweep-stale-temporaries.js";
