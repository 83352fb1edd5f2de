/**
 * `@paperclipai/createos-emulator`: a local CreateOS API on loopback, with real processes,
 * for tests, demos and trying `@paperclipai/plugin-createos` without an account.
 */

export type {
  DropStreamFault,
  DuplicateReplayFault,
  EmulatorFaultControl,
  EvictJournalFault,
  Fault,
  FaultFiring,
  FaultPlan,
  FaultScope,
  FaultTimes,
  HttpStatusFault,
  InvalidBase64Fault,
  LateApplyFault,
  LoseCreateReplyFault,
  OmitExitFault,
  SequenceGapFault,
  ShortFileFault,
  SlowStreamFault,
  StaleStateFault,
  StallStreamFault,
  StreamFaultBase,
} from "./fault-types.js";
export { startCreateosEmulator } from "./start-emulator.js";
export type {
  CreateosEmulator,
  CreateosEmulatorOptions,
  EmulatorIsolation,
  EmulatorRoute,
  ProcessSnapshot,
  RequestRecord,
  SandboxSnapshot,
  SandboxStatus,
} from "./types.js";
export { VERSION } from "./version.js";
