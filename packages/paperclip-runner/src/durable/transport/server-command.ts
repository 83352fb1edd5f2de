import { RECEIPT_DETAILS } from "../../events/receipt-details.js";
import type { CommandStatus, ServerCommand } from "../state/command-journal.js";
import { frameInvalid } from "./secure-channel.js";

/** What a `command_result` names about its command. */
export interface CommandSubject {
  readonly commandId: string;
  readonly controllerSeq: number;
  readonly type: string;
}

/** The command schemas the server sends: v2 for the `session.goal.*` commands PRP v2 added, v1 for the rest. */
const SERVER_COMMAND_SCHEMAS: ReadonlySet<unknown> = new Set([
  "paperclip.prp.command.v1",
  "paperclip.prp.command.v2",
]);
/** As local mode bounds a commandId (the server's own ids are at most 160 characters). */
const MAX_COMMAND_ID_LENGTH = 256;

/**
 * A delivered command, read: one the runner may apply, or one it names well enough to answer
 * (`rejected`, with `reason`) but must not apply.
 */
export type ServerCommandReading =
  | { readonly kind: "command"; readonly command: ServerCommand }
  | { readonly kind: "invalid"; readonly subject: CommandSubject; readonly reason: string };

/**
 * Pure: a delivered command, checked. Without a usable id, seq and type there is nothing to
 * answer: a bad frame (`ERR_RUNNER_DURABLE_FRAME_INVALID`). With them, an unsupported schema,
 * a payload that is not an object or an issue time that is not a string make it `invalid`:
 * answered `rejected`, never applied (it used to be applied as if it were well formed).
 * `issuedAt` is required, as the PRP command schema and upstream's runner (a `String` in its
 * `Command`) require it: the journal's digest (`wireCommandFingerprint`) cannot tell an absent
 * one from `null`, so a command without one must not be applied where a `null` one is refused.
 */
export function readServerCommand(value: unknown): ServerCommandReading {
  const command = value as Record<string, unknown> | null;
  if (
    command === null ||
    typeof command !== "object" ||
    Array.isArray(command) ||
    typeof command.commandId !== "string" ||
    command.commandId.length === 0 ||
    command.commandId.length > MAX_COMMAND_ID_LENGTH ||
    typeof command.type !== "string" ||
    command.type.length === 0 ||
    typeof command.controllerSeq !== "number" ||
    !Number.isSafeInteger(command.controllerSeq) ||
    command.controllerSeq < 1
  ) {
    throw frameInvalid(
      `a command lacks its id (1 to ${MAX_COMMAND_ID_LENGTH} characters), type or seq (an integer >= 1)`,
      "command",
    );
  }
  const subject = { commandId: command.commandId, controllerSeq: command.controllerSeq, type: command.type };
  const reason = !SERVER_COMMAND_SCHEMAS.has(command.schema)
    ? RECEIPT_DETAILS.unsupportedSchema
    : command.payload === null || typeof command.payload !== "object" || Array.isArray(command.payload)
      ? "invalid command: payload must be a JSON object"
      : typeof command.issuedAt !== "string"
        ? "invalid command: issuedAt must be a string"
        : null;
  if (reason !== null) return { kind: "invalid", subject, reason };
  return { kind: "command", command: command as unknown as ServerCommand };
}

export function commandSubject(command: CommandSubject): CommandSubject {
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
