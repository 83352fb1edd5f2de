import type { CommandRecord, DurableState } from "./durable-state.js";
import { reopenedState } from "./stream-end.js";

/** A command as the server delivers it (the wire form of `paperclip.prp.command.v1`). */
export interface ServerCommand {
  readonly schema: string;
  readonly commandId: string;
  readonly controllerSeq: number;
  readonly type: string;
  readonly issuedAt: string;
  readonly payload: Record<string, unknown>;
}

export type CommandStatus = "completed" | "failed" | "rejected" | "indeterminate";

export const INDETERMINATE_MESSAGE =
  "command was in flight when the runner stopped; it is not executed again";

/** The `command_result` payload: one per commandId, stored and replayed byte for byte. */
export function commandResult(
  command: Pick<CommandRecord, "commandId" | "controllerSeq" | "type">,
  status: CommandStatus,
  message: string,
  result: Record<string, unknown> | null,
): Record<string, unknown> {
  return {
    commandId: command.commandId,
    commandType: command.type,
    controllerSeq: command.controllerSeq,
    status,
    message,
    result,
  };
}

export type CommandAdmission =
  /** Seen before: answer with the stored result, do nothing else. */
  | { readonly kind: "replay"; readonly result: Record<string, unknown> }
  /** The same id with other content: refused, never applied. */
  | { readonly kind: "conflict" }
  /** A new command whose controllerSeq does not follow the last one: refused, never applied, not journalled. */
  | { readonly kind: "not_contiguous"; readonly expectedControllerSeq: number }
  /** A new command when the journal already holds `historyLimit`: refused, never applied, not journalled. */
  | { readonly kind: "history_full" }
  | { readonly kind: "new" };

/**
 * Pure: what to do with a delivered command, by its id and fingerprint, then its seq: the
 * journal is consulted first (a redelivery answers from it whatever its seq), and a new command
 * must come right after the last one, as upstream's runner requires ("controller sequence must
 * be contiguous") and as local mode answers, and find room in a journal of at most
 * `historyLimit` commands ("command history limit reached"): each commit rewrites the whole
 * journal, so a server sending without end would otherwise make every command cost more.
 */
export function admitServerCommand(
  state: DurableState,
  command: { readonly commandId: string; readonly controllerSeq: number },
  /** The delivered command's fingerprint in the form a record holds (`CommandRecord.fingerprintOf`). */
  fingerprint: (form: "wire" | "received") => string,
  historyLimit: number,
): CommandAdmission {
  const { commandId, controllerSeq } = command;
  const record = Object.hasOwn(state.processedCommands, commandId)
    ? state.processedCommands[commandId]
    : undefined;
  if (record === undefined) {
    const expectedControllerSeq = state.lastControllerCommandSeq + 1;
    if (controllerSeq !== expectedControllerSeq) return { kind: "not_contiguous", expectedControllerSeq };
    if (Object.keys(state.processedCommands).length >= Math.max(1, historyLimit))
      return { kind: "history_full" };
    return { kind: "new" };
  }
  if (record.fingerprint !== fingerprint(record.fingerprintOf ?? "wire")) return { kind: "conflict" };
  // A pending record here belongs to a previous process: recovery turned it indeterminate already.
  return {
    kind: "replay",
    result: record.result ?? commandResult(record, "indeterminate", INDETERMINATE_MESSAGE, null),
  };
}

/** Pure: the state with the command recorded (pending before its effect, done with its result after). */
export function withCommandRecord(state: DurableState, record: CommandRecord): DurableState {
  const processedCommands: Record<string, CommandRecord> = { ...state.processedCommands };
  setCommandRecord(processedCommands, record);
  return {
    ...state,
    processedCommands,
    lastControllerCommandSeq: Math.max(state.lastControllerCommandSeq, record.controllerSeq),
  };
}

/** Sets `record` in place under its commandId, an own data property whatever the id (`__proto__` too). */
export function setCommandRecord(records: Record<string, CommandRecord>, record: CommandRecord): void {
  Object.defineProperty(records, record.commandId, {
    value: record,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * Pure: what a restarted runner makes of its predecessor's state. A pending
 * command may or may not have had its effect, so it becomes `indeterminate` with
 * a stored result (replayed on every redelivery) and is never run again. The
 * lifecycle is `connecting`, or a recorded end's (`reopenedState`).
 */
export function recoverDurableState(state: DurableState): {
  readonly state: DurableState;
  readonly indeterminate: readonly string[];
} {
  let next: DurableState = { ...state, restarts: state.restarts + 1 };
  const indeterminate: string[] = [];
  for (const record of Object.values(state.processedCommands)) {
    if (record.status !== "pending") continue;
    indeterminate.push(record.commandId);
    next = withCommandRecord(next, {
      ...record,
      status: "indeterminate",
      result: commandResult(record, "indeterminate", INDETERMINATE_MESSAGE, null),
    });
  }
  // Its lifecycle and fence read once the journal is recovered (an end replayed as indeterminate stands).
  return { state: reopenedState(next), indeterminate };
}
