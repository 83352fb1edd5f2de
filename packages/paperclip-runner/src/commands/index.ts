/**
 * `@paperclipai/paperclip-runner/protocol`: the command side of local mode, what a controller
 * writes to the runner's stdin (commands, acknowledgements) and how the runner identifies a
 * command (canonical JSON, fingerprint). The event side is `./prp`.
 */
export { canonicalJson } from "./canonical-json.js";
export { commandFingerprint } from "./command-fingerprint.js";
export {
  type ControllerCommand,
  type ControllerLine,
  LOCAL_COMMAND_TYPES,
  type LocalCommandType,
  parseControllerLine,
  type StreamAck,
} from "./controller-command.js";
export { ACK_SCHEMA, COMMAND_SCHEMA } from "./schemas.js";
