/**
 * Wire schema names of what the controller writes to local mode. Changing one is a
 * breaking wire-format change. What the runner writes is in `src/events/`.
 */
export const COMMAND_SCHEMA = "paperclip.prp.command.v1";
/** Beyond upstream: the controller acknowledges events through a seq, trimming the durable outbox. */
export const ACK_SCHEMA = "paperclip.prp.ack.v1";
