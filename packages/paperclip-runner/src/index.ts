export { RunnerError } from "@paperclipai/errors";
export {
  type FlagDefinition,
  type FlagKind,
  RUNNERD_FLAGS,
  type RunnerdFlagName,
} from "./cli/flag-definitions.js";
export { invalidArgument, missingArgument, missingValue, type ParsedFlags, parseFlags } from "./cli/flags.js";
export {
  atomicPrivateWrite,
  createPrivateDirectory,
  type OpenPrivateDirectory,
  type OpenPrivateDirectoryOptions,
  openPrivateDirectory,
  openPrivateFile,
  PRIVATE_PATH_ERRORS,
  type PrivatePathErrors,
  type PrivatePathFailure,
  sweepStaleTemporaries,
  verifyPrivateDirectory,
} from "./private-fs/index.js";
export { VERSION } from "./version.js";
