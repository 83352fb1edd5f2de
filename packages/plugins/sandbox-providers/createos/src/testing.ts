/**
 * `@paperclipai/plugin-createos/testing`: the local CreateOS emulator, a real loopback HTTP
 * server with real processes, for tests, demos and trying the plugin without an account.
 */

export { startCreateosEmulator } from "./emulator/start-emulator.js";
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
} from "./emulator/types.js";
