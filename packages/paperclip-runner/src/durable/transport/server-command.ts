import type { CommandStatus, ServerCommand } from "../state/command-journal.js";
import { frameInvalid } from "./secure-channel.js";

/** What a `command_result` names about its command. */
export interface CommandSubject {
  readonly commandId: string;
  readonly controllerSeq: number;
  readonly type: string;
}

/** Pure: a delivered command, checked for the fields the runner relies on; anything else is a bad frame. */
export function readServerCommand(value: unknown): ServerCommand {
  const command = value as Partial<ServerCommand> | null;
  if (
    command === null ||
    typeof command !== "object" ||
    typeof command.commandId !== "string" ||
    typeof command.type !== "string" ||
    !Number.isSafeInteger(command.controllerSeq) ||
    command.payload === null ||
    typeof command.payload !== "object"
  ) {
    throw frameInvalid("a command lacks its id, type, seq or payload", "command");
  }
  return command as ServerCommand;
}

export function commandSubject(command: ServerCommand): CommandSubject {
  return { commandId: command.commandId, controllerSeq: command.controllerSeq, type: command.type };
}

/** Pure: the result status of the engine's receipt status (a duplicate is read through its original). */
export function resultStatus(receiptStatus: string): CommandStatus {
  switch (receiptStatus) {
    case "accepted":
      return "completed";
    case "indeterminate":
      return "indeterminate";
    case "failed":
      return "failed";
    default:
      return "rejected";
  }
}
