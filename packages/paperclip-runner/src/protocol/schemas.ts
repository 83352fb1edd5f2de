/** Wire schema names of local mode. Changing one is a breaking wire-format change. */
export const COMMAND_SCHEMA = "paperclip.prp.command.v1";
export const RECEIPT_SCHEMA = "paperclip.prp.receipt.v1";
export const ACK_SCHEMA = "paperclip.prp.ack.v1";
export const EVENT_SCHEMA = "paperclip.runner.stream.v1";
