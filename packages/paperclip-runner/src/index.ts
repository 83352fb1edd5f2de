export { RunnerError } from "@paperclipai/errors";
export {
  BINARY_CONTRACT_VERSION,
  BUILD_METADATA_SCHEMA,
  type BuildMetadata,
  buildMetadata,
  PRP_RANGE,
  TRANSPORT_MODES,
} from "./cli/build-metadata.js";
export {
  type FlagDefinition,
  type FlagKind,
  RUNNERD_FLAGS,
  type RunnerdFlagName,
} from "./cli/flag-definitions.js";
export { invalidArgument, missingArgument, missingValue, type ParsedFlags, parseFlags } from "./cli/flags.js";
export { createRunnerdCli, type LocalModeRunner, type RunnerdCli } from "./cli/runnerd-cli.js";
export type { RunnerdIo } from "./cli/runnerd-io.js";
export {
  boundedRedactedDiagnostic,
  DIAGNOSTIC_BYTE_LIMIT,
  DIAGNOSTIC_FILE_NAME,
  DIAGNOSTIC_TRUNCATION_SUFFIX,
  DIAGNOSTICS_PATH_ERRORS,
  describeFailure,
  type FailureKind,
  persistRunnerDiagnostic,
  verifyPrivateDiagnosticsDirectory,
} from "./diagnostics/index.js";
export { type LocalModeIo, runLocalMode } from "./local/run-local-mode.js";
export {
  type AtomicPrivateWriteOptions,
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
export { canonicalJson } from "./protocol/canonical-json.js";
export { commandFingerprint } from "./protocol/command-fingerprint.js";
export {
  type ControllerCommand,
  type ControllerLine,
  LOCAL_COMMAND_TYPES,
  type LocalCommandType,
  parseControllerLine,
  type StreamAck,
} from "./protocol/controller-command.js";
export { ACK_SCHEMA, COMMAND_SCHEMA } from "./protocol/schemas.js";
export * from "./prp/index.js";
export { STATE_FILE_NAME, STATE_FILE_SCHEMA } from "./state/runner-state.js";
export { VERSION } from "./version.js";
