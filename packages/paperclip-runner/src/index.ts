/**
 * `@paperclipai/paperclip-runner`: the `paperclip-runnerd` daemon as a library (its CLI and
 * local mode) and the facts a controller checks (build metadata, state file). The rest has
 * its own entry: `./prp` (the event side: PRP events, stream envelope, terminals),
 * `./protocol` (the command side), `./diagnostics` and `./private-fs`.
 */
export { RunnerError } from "@paperclipai/errors";
export {
  BINARY_CONTRACT_VERSION,
  BUILD_METADATA_SCHEMA,
  type BuildMetadata,
  buildMetadata,
  HARNESS_DRIVER_VERSION,
  NATIVE_EXECUTION_VERSION,
  PRP_RANGE,
  PRP_TRANSPORT_MODES,
} from "./cli/build-metadata.js";
export { createRunnerdCli, type LocalModeRunner, type RunnerdCli } from "./cli/runnerd-cli.js";
export type { RunnerdIo } from "./cli/runnerd-io.js";
export { type LocalModeIo, runLocalMode } from "./local/run-local-mode.js";
export { JOURNAL_FILE_NAME } from "./state/journal-file.js";
export { type RunnerState, STATE_FILE_NAME, STATE_FILE_SCHEMA } from "./state/runner-state.js";
export { readStoredState } from "./state/state-store.js";
export { VERSION } from "./version.js";
