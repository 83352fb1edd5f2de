export { type AtomicPrivateWriteOptions, atomicPrivateWrite } from "./atomic-private-write.js";
export { createPrivateDirectory } from "./create-private-directory.js";
export {
  assertPrivateDirectory,
  type OpenPrivateDirectory,
  type OpenPrivateDirectoryOptions,
  openPrivateDirectory,
  sameInode,
  verifyPrivateDirectory,
} from "./open-private-directory.js";
export { assertPrivateFile, openPrivateFile } from "./open-private-file.js";
export {
  PRIVATE_PATH_ERRORS,
  type PrivatePathErrors,
  type PrivatePathFailure,
} from "./private-path-errors.js";
export { sweepStaleTemporaries } from "./sweep-stale-temporaries.js";
