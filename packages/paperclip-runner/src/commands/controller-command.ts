import { MAX_JSON_NESTING, nestsDeeperThan } from "../provider/json-nesting.js";
import { ACK_SCHEMA, COMMAND_SCHEMA } from "./schemas.js";

/** The command types the Local runner applies; any other type is answered `not implemented`. */
export const LOCAL_COMMAND_TYPES = [
  "run.prepare",
  "session.open",
  "turn.start",
  "turn.interrupt",
  "request.resolve",
  "turn.stop",
  "session.close",
  "run.cancel",
  "runner.shutdown",
] as const;

export type LocalCommandType = (typeof LOCAL_COMMAND_TYPES)[number];

/** One controller command, as it arrived (the fingerprint is taken over exactly these fields). */
export interface ControllerCommand {
  readonly schema: typeof COMMAND_SCHEMA;
  readonly commandId: string;
  readonly controllerSeq: number;
  readonly type: string;
  /** When the controller issued it; part of the command's identity, so a replay with another time is another command. */
  readonly issuedAt?: string;
  readonly payload: Record<string, unknown>;
}

/** The controller acknowledges events through a seq; acknowledged events leave the outbox. */
export interface StreamAck {
  readonly schema: typeof ACK_SCHEMA;
  readonly throughSeq: number;
}

/** A line from the controller, classified. `invalid` lines still get a rejected receipt. */
export type ControllerLine =
  | { readonly kind: "command"; readonly command: ControllerCommand }
  | { readonly kind: "ack"; readonly ack: StreamAck }
  | {
      readonly kind: "invalid";
      readonly reason: string;
      readonly commandId: string | null;
      readonly controllerSeq: number | null;
      readonly type: string | null;
    };

export const UNSUPPORTED_SCHEMA = "unsupported command schema";

export function isLocalCommandType(type: string): type is LocalCommandType {
  return (LOCAL_COMMAND_TYPES as readonly string[]).includes(type);
}

/** Classifies one stdin line. Pure: never throws, whatever the controller sent. */
export function parseControllerLine(line: string): ControllerLine {
  // Before the parse: a 64 KiB line nests 32 000 levels, past the stack of the fingerprint's
  // recursive walk; upstream reads it with serde_json, whose recursion limit is 128.
  if (nestsDeeperThan(line)) {
    return invalid(`invalid command JSON: the line nests deeper than ${MAX_JSON_NESTING} levels`, null);
  }
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return invalid("invalid command JSON: the line is not JSON", null);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return invalid("invalid command JSON: the line is not a JSON object", null);
  }
  const record = value as Record<string, unknown>;
  if (record.schema === ACK_SCHEMA) {
    if (!isSeq(record.throughSeq, 0))
      return invalid("invalid ack: throughSeq must be an integer >= 0", record);
    return { kind: "ack", ack: { schema: ACK_SCHEMA, throughSeq: record.throughSeq } };
  }
  if (record.schema !== COMMAND_SCHEMA) return invalid(UNSUPPORTED_SCHEMA, record);
  if (
    typeof record.commandId !== "string" ||
    record.commandId.length === 0 ||
    record.commandId.length > 256
  ) {
    return invalid("invalid command: commandId must be a non-empty string of at most 256 characters", record);
  }
  if (!isSeq(record.controllerSeq, 1)) {
    return invalid("invalid command: controllerSeq must be an integer >= 1", record);
  }
  if (typeof record.type !== "string" || record.type.length === 0) {
    return invalid("invalid command: type must be a non-empty string", record);
  }
  if (record.issuedAt !== undefined && typeof record.issuedAt !== "string") {
    return invalid("invalid command: issuedAt must be a string", record);
  }
  const payload = record.payload ?? {};
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    return invalid("invalid command: payload must be a JSON object", record);
  }
  return {
    kind: "command",
    command: {
      schema: COMMAND_SCHEMA,
      commandId: record.commandId,
      controllerSeq: record.controllerSeq,
      type: record.type,
      ...(record.issuedAt === undefined ? {} : { issuedAt: record.issuedAt }),
      payload: payload as Record<string, unknown>,
    },
  };
}

function isSeq(value: unknown, minimum: number): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= minimum;
}

function invalid(reason: string, record: Record<string, unknown> | null): ControllerLine {
  return {
    kind: "invalid",
    reason,
    commandId: typeof record?.commandId === "string" ? record.commandId : null,
    controllerSeq: isSeq(record?.controllerSeq, 1) ? (record?.controllerSeq as number) : null,
    type: typeof record?.type === "string" ? record.type : null,
  };
}
