/**
 * `@paperclipai/createos-emulator`: a local CreateOS API on loopback, with real processes,
 * for tests, demos and trying `@paperclipai/plugin-createos` without an account.
 */

export { startCreateosEmulator } from "./start-emulator.js";
export type {
  CreateosEmulator,
  CreateosEmulatorOptions,
  DropStreamFault,
  DuplicateReplayFault,
  EmulatorFaultControl,
  EmulatorRoute,
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
  ProcessSnapshot,
  RequestRecord,
  SandboxSnapshot,
  SandboxStatus,
  SequenceGapFault,
  SlowStreamFault,
  StallStreamFault,
  StreamFaultBase,
} from "./types.js";
export { VERSION } from "./version.js";
